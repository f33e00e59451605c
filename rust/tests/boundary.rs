//! The core's boundary (issue 13, DESIGN errors: the core never panics and
//! no non-finite or absurd value enters its state): the validators and the
//! entry points Python reaches, with random arguments — NaN, infinities,
//! 1e300, negative and huge integers, sizes that overflow. Each either
//! succeeds or returns a `CoreError` with a message; never a panic, never a
//! non-finite number in the world afterwards. The PyO3 layer's own checks
//! (integer arguments, buffers) are tested through Python in
//! tests/test_core_boundary.py.

mod common;

use artificer_core::render::{Layer, PixelFormat, Rasterizer, SpriteImage, Sprites, Target};
use artificer_core::sim::commands::{Command, COMMAND_WIDTH};
use artificer_core::sim::limits::{self, MAX_AMOUNT, MAX_FACTOR};
use artificer_core::sim::player::Controls;
use artificer_core::sim::relics::RelicRules;
use artificer_core::sim::stress::stress_config;
use artificer_core::sim::world::World;
use artificer_core::sim::PlayerStats;
use artificer_core::vm::board::{CoreDef, Slot};
use artificer_core::vm::compile::Compiler;
use artificer_core::vm::exec::{CastOutput, Caster, Senses};
use artificer_core::vm::mana::Mana;
use artificer_core::vm::sample::catalog;
use artificer_core::vm::spell::{Effect, SpellDef};
use proptest::prelude::*;

/// Floats as a hostile caller sends them: ordinary ones and every edge.
fn wild_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => -1e3f64..1e3,
        2 => any::<f64>(),
        1 => prop_oneof![
            Just(f64::NAN), Just(f64::INFINITY), Just(f64::NEG_INFINITY), Just(1e300), Just(-1e300),
            Just(1e37), Just(3.5e38), Just(1e9), Just(1e10), Just(0.0), Just(-0.0), Just(f64::MIN_POSITIVE),
        ],
    ]
}

fn wild_f32() -> impl Strategy<Value = f32> {
    wild_f64().prop_map(|v| v as f32)
}

/// Integers as a hostile caller sends them.
fn wild_i64() -> impl Strategy<Value = i64> {
    prop_oneof![
        3 => -10i64..300,
        1 => any::<i64>(),
        1 => prop_oneof![Just(1i64 << 32), Just(65_538), Just(1i64 << 62), Just(-1), Just(i64::MIN), Just(i64::MAX)],
    ]
}

fn world() -> World {
    World::new(stress_config(3, &common::tuning())).unwrap()
}

fn moving() -> Controls {
    Controls { move_x: 1.0, move_y: 0.7, aim_x: 0.0, aim_y: 0.0, dash: true, aim_at_point: false }
}

/// Every number of the player that the frame buffers show is finite.
fn assert_player_finite(w: &World) {
    let p = &w.player;
    for (name, v) in [
        ("x", p.x),
        ("y", p.y),
        ("hp", p.hp),
        ("hp_max", p.hp_max),
        ("mana", p.mana),
        ("mana_max", p.mana_max),
        ("ward", p.ward),
        ("strength", p.strength),
        ("speed", p.speed),
        ("armor", p.armor),
        ("crit_chance", p.crit_chance),
    ] {
        assert!(v.is_finite(), "player.{name} is {v}");
    }
}

fn config() -> ProptestConfig {
    ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() }
}

// --- the validators -------------------------------------------------------------------

proptest! {
    #![proptest_config(config())]

    #[test]
    fn limits_accept_exactly_the_range_and_name_what_they_refuse(v in wild_f64(), i in wild_i64()) {
        match limits::float("arg", v, -MAX_AMOUNT, MAX_AMOUNT) {
            Ok(f) => prop_assert!(f.is_finite() && v.abs() <= MAX_AMOUNT),
            Err(e) => {
                prop_assert!(v.is_nan() || v.abs() > MAX_AMOUNT);
                prop_assert!(e.to_string().starts_with("arg must be a finite number in -1e9..=1e9, got "), "{}", e);
            }
        }
        match limits::count("pierce", i, 1_000_000) {
            Ok(n) => prop_assert!((0..=1_000_000).contains(&i) && n as i64 == i),
            Err(e) => prop_assert!(e.to_string().contains("pierce") && e.to_string().contains(&i.to_string())),
        }
        prop_assert_eq!(limits::threads("threads", i).is_ok(), i >= 1 && i as u64 <= limits::max_threads() as u64);
    }

    /// A command row decodes to numbers that stay finite as f32 (R: no
    /// non-finite value enters the state), or is refused naming its row.
    #[test]
    fn commands_decode_to_finite_numbers_or_are_refused(
        op in prop_oneof![1u8..=10, any::<u8>()].prop_map(|o| o as f64),
        rest in proptest::collection::vec(wild_f64(), COMMAND_WIDTH - 1),
    ) {
        let mut row = vec![op];
        row.extend(rest);
        match Command::decode(&row, 3, 4) {
            Ok(c) => {
                let numbers: Vec<f32> = match c {
                    Command::Spawn { x, y, .. } => vec![x, y],
                    Command::Heal { amount } | Command::Ward { amount } | Command::Mana { amount } | Command::Strength { amount } => vec![amount],
                    Command::ApplyStatus { x, y, seconds, .. } => vec![x, y, seconds],
                    Command::ApplyStatusTurns { x, y, turns, .. } => vec![x, y, turns],
                    Command::DamageNearest { x, y, amount } => vec![x, y, amount],
                    Command::ClearEnemies | Command::CollectPickups => vec![],
                };
                prop_assert!(numbers.iter().all(|v| v.is_finite() && v.abs() as f64 <= 1e9), "{:?}", c);
            }
            Err(e) => prop_assert!(e.to_string().starts_with("commands[3]: "), "{}", e),
        }
    }

    /// Random commands, stepped: whatever is accepted keeps the world finite.
    #[test]
    fn accepted_commands_keep_the_world_finite(rows in proptest::collection::vec(
        (1u8..=10, 0.0f64..3.0, wild_f64(), wild_f64(), wild_f64()), 1..12)
    ) {
        let mut w = world();
        let kinds = w.kinds().len();
        let mut commands = Vec::new();
        for (i, (op, a, x, y, value)) in rows.iter().enumerate() {
            if let Ok(c) = Command::decode(&[*op as f64, a.floor(), 1.0, *x, *y, *value], i, kinds) {
                commands.push(c);
            }
        }
        for _ in 0..4 {
            w.step(&moving(), &commands);
        }
        assert_player_finite(&w);
        prop_assert!(w.pools.enemies.x.iter().chain(&w.pools.enemies.y).chain(&w.pools.enemies.hp).all(|v| v.is_finite()));
    }

    /// The setters game flow calls between waves: each refused (nothing
    /// changed) or the world stays finite while the player runs and dashes.
    #[test]
    fn setters_refuse_or_keep_the_world_finite(
        stats in proptest::collection::vec(wild_f32(), 8),
        strength in wild_f32(),
        hp in (wild_f32(), wild_f32()),
        attunement in proptest::collection::vec(wild_f32(), 6),
        relic in proptest::collection::vec(wild_f32(), 5),
        position in (wild_f32(), wild_f32()),
    ) {
        let mut w = world();
        let before = w.state_hash();
        let s = PlayerStats {
            max_hp_bonus: stats[0], armor: stats[1], move_speed_bonus: stats[2], crit_chance_bonus: stats[3],
            pickup_radius_bonus: stats[4], mana_regen_bonus: stats[5], mana_leech: stats[6],
            mana_max_bonus: stats[7],
        };
        if w.set_player_stats(s).is_err() {
            prop_assert_eq!(w.state_hash(), before, "a refused call changes nothing");
        }
        let _ = w.set_strength(strength);
        let _ = w.set_player_hp(hp.0, hp.1);
        let _ = w.set_attunement(attunement.clone().try_into().unwrap());
        let rules = RelicRules {
            first_action_bonus: relic[0], damage_floor: relic[1], thorns: relic[2], hurt_ward: relic[3],
            vulnerable_weak: relic[4], ..RelicRules::default()
        };
        let _ = w.set_relic_rules(rules);
        let _ = w.set_player_position(position.0, position.1);
        for _ in 0..30 {
            w.step(&moving(), &[]);
        }
        assert_player_finite(&w);
    }

    /// A config with any one number changed: refused, or a world that steps.
    #[test]
    fn configs_are_refused_or_run(field in 0usize..16, v in wild_f32(), hz in wild_i64()) {
        let mut cfg = stress_config(1, &common::tuning());
        match field {
            0 => cfg.arena_w = v,
            1 => cfg.player.move_speed = v,
            2 => cfg.player.dash_speed = v,
            3 => cfg.player.max_hp = v,
            4 => cfg.enemy_kinds[0].hp = v,
            5 => cfg.enemy_kinds[0].speed = v,
            6 => cfg.enemy_kinds[0].radius = v,
            7 => cfg.pickups.magnet_speed = v,
            8 => cfg.elite_hp_multiplier = v,
            9 => cfg.separation_strength = v,
            10 => cfg.turn_seconds = v,
            11 => cfg.vm.homing_range = v,
            12 => cfg.statuses.burn_dps = v,
            13 => cfg.tick_hz = hz.clamp(0, u32::MAX as i64) as u32,
            14 => cfg.player.crit_multiplier = v,
            _ => cfg.pickups.pickup_radius = v,
        }
        match World::new(cfg) {
            Ok(mut w) => {
                w.spawn_enemy(0, true, 10.0, 10.0).unwrap();
                for _ in 0..3 {
                    w.step(&moving(), &[]);
                }
                assert_player_finite(&w);
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    /// Raster targets of any size, pitch and buffer: refused or drawn.
    #[test]
    fn raster_targets_are_refused_or_drawn(
        width in prop_oneof![0usize..40, any::<usize>()],
        height in prop_oneof![0usize..40, any::<usize>()],
        pitch in prop_oneof![0usize..200, any::<usize>(), Just(1usize << 62), Just(usize::MAX)],
        len in 0usize..8192,
        rows in proptest::collection::vec(wild_f32(), 0..24),
        sprite in wild_i64(),
        offset in (wild_f32(), wild_f32()),
    ) {
        let format = PixelFormat::from_masks(4, [0xff0000, 0xff00, 0xff, 0]).unwrap();
        let mut pixels = vec![0u8; len];
        let mut r = Rasterizer::new(vec![SpriteImage::new("s", 3, 2, vec![255; 24]).unwrap()]);
        let Ok(mut target) = Target::new(&mut pixels, width, height, pitch, format) else { return Ok(()) };
        let n = rows.len() / 2 * 2;
        let layer = Layer { rows: &rows[..n], columns: 2, sprites: Sprites::All(sprite) };
        let _ = r.draw(&mut target, offset, &[layer]);
    }

    #[test]
    fn sprite_images_and_pixel_formats_are_refused_or_made(
        w in prop_oneof![0usize..9, any::<usize>()], h in prop_oneof![0usize..9, any::<usize>()], len in 0usize..400,
        bpp in any::<usize>(), masks in proptest::array::uniform4(any::<u32>()),
    ) {
        let _ = SpriteImage::new("s", w, h, vec![0; len]);
        let _ = PixelFormat::from_masks(bpp, masks);
    }

    /// Boards of random slots and edges (cycles, merges, edges and entries
    /// out of range): refused by `CoreDef::validate` or compiled, and the
    /// compiler never panics nor hangs on what it is handed.
    #[test]
    fn boards_are_refused_or_compile(
        n in 1usize..10,
        edges in proptest::collection::vec(proptest::collection::vec(0usize..12, 0..3), 10),
        main in 0usize..12,
        on_kill in proptest::option::of(0usize..12),
        cards in proptest::collection::vec(proptest::option::of(0u16..40), 0..10),
        cpu in wild_i64(),
    ) {
        let slots = (0..n).map(|i| Slot { x: i as i32, y: 0, bonus: None, next: edges[i].clone() }).collect();
        let core = CoreDef { slots, main, on_kill, ..CoreDef::row("random", 0, 100.0, 5.0, 0.25, 20) };
        let spells = catalog();
        let cards: Vec<Option<u16>> = cards.into_iter().take(n).collect();
        let compiled = Compiler::new(&spells, &[]).compile_with_cpu(&core, &cards, cpu.clamp(0, u32::MAX as i64) as u32);
        if core.validate().is_err() {
            prop_assert!(compiled.is_err(), "the compiler checks the board too");
        }
        if let Ok(program) = compiled {
            let mut c = Caster::new(program, Mana::new(100.0, 5.0, common::mana_rules()), common::cast_rules(), 0.25, 0.0, 20, false, false, 1);
            let mut out = CastOutput::default();
            let mut senses = Senses { hp: 50.0, hp_max: 100.0, moving: true, nearest_enemy: 40.0 };
            for _ in 0..3 {
                out.clear();
                let delay = c.cast(&mut senses, &mut out);
                prop_assert!(delay.is_finite());
            }
        }
    }

    /// A spell with one number made wild: refused naming the field, or cast
    /// with finite results.
    #[test]
    fn spells_are_refused_or_cast_finite(which in 0usize..29, field in 0usize..8, v in wild_f32(), count in wild_i64()) {
        let mut spells = catalog();
        let spell: &mut SpellDef = &mut spells[which];
        let u = count.clamp(0, u32::MAX as i64) as u32;
        match (&mut spell.effect, field) {
            (_, 0) => spell.mana_cost = v,
            (_, 1) => spell.cast_delay = v,
            (_, 2) => spell.cpu = u,
            (Effect::Action(a), 3) => a.damage = v,
            (Effect::Action(a), 4) => a.pierce = u,
            (Effect::Action(a), 5) => a.speed = v,
            (Effect::Modifier(m), _) => m.damage_mult = v,
            (Effect::Multicast { count, .. }, _) => *count = u,
            (Effect::Trigger(t), _) => t.delay = v,
            _ => spell.mana_cost = v,
        }
        let checked = spells[which].validate();
        let id = spells[which].id.clone();
        let core = CoreDef::row("row", 4, 100.0, 5.0, 0.25, 2000);
        let cards = vec![Some(which as u16), Some(0), None, None];
        match Compiler::new(&spells, &[]).compile(&core, &cards) {
            Err(e) => prop_assert!(checked.is_err() && e.contains(&id), "{}", e),
            Ok(program) => {
                prop_assert!(checked.is_ok());
                let mut c = Caster::new(program, Mana::new(100.0, 5.0, common::mana_rules()), common::cast_rules(), 0.25, 0.0, 2000, false, false, 1);
                let mut out = CastOutput::default();
                let mut senses = Senses { hp: 50.0, hp_max: 100.0, moving: false, nearest_enemy: 40.0 };
                let delay = c.cast(&mut senses, &mut out);
                prop_assert!(delay.is_finite() && senses.hp.is_finite());
                for e in &out.emissions {
                    prop_assert!(((e.action.damage + e.shot.damage_flat) * e.shot.damage_mult).is_finite());
                }
            }
        }
    }
}

// --- the cases issue 13 found, one test each ------------------------------------------

fn xrgb() -> PixelFormat {
    PixelFormat::from_masks(4, [0xff0000, 0xff00, 0xff, 0]).unwrap()
}

#[test]
fn a_pitch_of_2_to_the_62_is_refused_not_wrapped() {
    let mut px = vec![0u8; 64];
    let err = Target::new(&mut px, 2, 5, 1 << 62, xrgb()).err().expect("refused");
    assert!(err.to_string().contains("pitch 4611686018427387904"), "{err}");
    assert!(Target::new(&mut px, 2, 5, usize::MAX, xrgb()).is_err());
}

#[test]
fn a_target_of_zero_width_and_zero_pitch_draws_nothing() {
    let mut px = vec![0u8; 64];
    let mut r = Rasterizer::new(vec![SpriteImage::new("s", 1, 1, vec![255; 4]).unwrap()]);
    let mut target = Target::new(&mut px, 0, 5, 0, xrgb()).unwrap();
    let rows = [0.0f32, 0.0];
    assert_eq!(r.draw(&mut target, (0.0, 0.0), &[Layer { rows: &rows, columns: 2, sprites: Sprites::All(0) }]), Ok(0));
}

#[test]
fn one_row_with_a_huge_pitch_draws_its_row() {
    let mut px = vec![0u8; 8];
    let mut r = Rasterizer::new(vec![SpriteImage::new("s", 1, 1, vec![255; 4]).unwrap()]);
    let mut target = Target::new(&mut px, 2, 1, 1 << 62, xrgb()).unwrap();
    let rows = [0.5f32, 0.5];
    assert_eq!(r.draw(&mut target, (0.0, 0.0), &[Layer { rows: &rows, columns: 2, sprites: Sprites::All(0) }]), Ok(1));
    assert_eq!(&px[..4], &[255, 255, 255, 0]);
}

#[test]
fn threads_above_four_times_the_cores_are_refused() {
    let mut w = world();
    let err = w.set_threads(100_000).unwrap_err();
    assert!(err.to_string().contains("threads must be a whole number in 1..="), "{err}");
    let mut r = Rasterizer::new(vec![]);
    assert!(r.set_threads(100_000).is_err());
    w.set_threads(2).unwrap();
    assert_eq!(w.threads(), 2);
}

#[test]
fn a_move_speed_bonus_of_1e37_is_refused_and_the_largest_allowed_stays_finite() {
    let mut w = world();
    let huge = PlayerStats { move_speed_bonus: 1e37, ..PlayerStats::default() };
    let err = w.set_player_stats(huge).unwrap_err();
    assert!(err.to_string().contains("move_speed_bonus") && err.to_string().contains("1e37"), "{err}");
    w.set_player_stats(PlayerStats { move_speed_bonus: MAX_FACTOR as f32, ..PlayerStats::default() }).unwrap();
    for _ in 0..60 {
        w.step(&moving(), &[]);
    }
    assert_player_finite(&w);
}

#[test]
fn ward_and_strength_commands_of_1e300_are_refused_like_set_strength() {
    for op in [3.0, 6.0] {
        let err = Command::decode(&[op, 0.0, 0.0, 0.0, 0.0, 1e300], 0, 1).unwrap_err();
        assert!(err.to_string().contains("1e300"), "{err}");
    }
    let mut w = world();
    assert!(w.set_strength(1e30).is_err());
    // The largest accepted, stacked for many frames, stays finite.
    let ward = Command::decode(&[3.0, 0.0, 0.0, 0.0, 0.0, 1e9], 0, 1).unwrap();
    let strength = Command::decode(&[6.0, 0.0, 0.0, 0.0, 0.0, 1e9], 0, 1).unwrap();
    for _ in 0..100 {
        w.step(&Controls::default(), &[ward, strength]);
    }
    assert_player_finite(&w);
}

#[test]
fn pierce_stacked_by_modifiers_saturates_instead_of_wrapping() {
    let mut spells = catalog();
    let pierce_plus = spells.iter().position(|s| s.id == "pierce_plus").unwrap();
    if let Effect::Modifier(m) = &mut spells[pierce_plus].effect {
        m.pierce_add = 1_000_000;
    }
    assert!(spells[pierce_plus].validate().is_ok());
    if let Effect::Modifier(m) = &mut spells[pierce_plus].effect {
        m.pierce_add = 1 << 31;
    }
    let err = spells[pierce_plus].validate().unwrap_err();
    assert!(err.contains("modifier.pierce_add"), "{err}");
}

#[test]
fn a_cyclic_board_is_refused_by_the_core() {
    let mut core = CoreDef::row("cyclic", 3, 100.0, 5.0, 0.25, 20);
    core.slots[2].next = vec![0];
    let err = core.validate().unwrap_err();
    assert!(err.contains("reached twice"), "{err}");
    let spells = catalog();
    assert!(Compiler::new(&spells, &[]).compile(&core, &[Some(0), None, None]).is_err());
    // Merging routes and an edge off the board, too.
    let mut merge = CoreDef::row("merge", 3, 100.0, 5.0, 0.25, 20);
    merge.slots[0].next = vec![1, 2];
    merge.slots[1].next = vec![2];
    assert!(merge.validate().is_err());
    let mut off = CoreDef::row("off", 2, 100.0, 5.0, 0.25, 20);
    off.slots[1].next = vec![7];
    assert!(off.validate().unwrap_err().contains("edge to slot 7"));
    off.slots[1].next = vec![];
    off.main = 9;
    assert!(off.validate().is_err());
}

#[test]
fn config_numbers_beyond_the_bounds_are_refused_naming_the_field() {
    for (field, set) in [
        ("arena.width", (|c: &mut artificer_core::sim::WorldConfig| c.arena_w = 1e30) as fn(&mut _)),
        ("sim.tick_hz", |c| c.tick_hz = 1_000_000_000),
        ("hp", |c| c.enemy_kinds[0].hp = 1e30),
        ("player.move_speed", |c| c.player.move_speed = 1e30),
        ("vm.homing_range", |c| c.vm.homing_range = 1e30),
    ] {
        let mut cfg = stress_config(1, &common::tuning());
        set(&mut cfg);
        let err = World::new(cfg).err().expect("refused").to_string();
        assert!(err.contains(field), "{field}: {err}");
    }
}
