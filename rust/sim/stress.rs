//! The standard stress workload (defined in `benches/README.md`), built in
//! Rust for the criterion benches and the core's tests. The Python stress
//! tool builds the same workload from `artificer.sim.scene` (numpy's PCG64
//! instead of PCG32 for the initial positions) and runs it through this
//! very `World::step`.

use super::config::{
    Element, EnemyKind, PickupParams, PlayerParams, Rules, StatusParams, VmParams, WorldConfig, ELEMENTS,
};
use super::player::Controls;
use super::pools::{NewProjectile, Owner};
use super::rng::{Rng, Stream};
use super::world::World;

pub const WORLD: f32 = 4000.0;
pub const ENEMY_RADIUS: f32 = 8.0;
pub const PROJECTILE_RADIUS: f32 = 4.0;
/// px per frame
pub const CHASE: f32 = 1.5;
pub const PROJECTILE_SPEED: f32 = 6.0;
pub const SEPARATION: f32 = 0.25;
/// The most neighbours an enemy tests for separation (`SeparationRule`): the
/// game's balance.json value. The crowd layout at 10k/20k and 1k/2k never
/// reaches it (same state hash with and without it: a cap of 48 would bite
/// in the centre of the 10k crowd); at big counts the fixed world crushes
/// the crowd and the cap keeps the cost linear.
pub const SEPARATION_CANDIDATES: u32 = 64;
pub const PIERCE: u32 = 3;
pub const TICK_HZ: u32 = 60;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Uniform,
    Crowd,
}

/// The workload's rules: the player stands still and cannot be hurt,
/// enemies never die, spent projectiles respawn in place, every frame's
/// nearest enemy in reach is a hit.
pub fn stress_rules() -> Rules {
    Rules {
        player_fixed: true,
        player_invulnerable: true,
        enemies_immortal: true,
        respawn_spent_projectiles: true,
        no_hit_memory: true,
        enemies_still: false,
        hit_events: false,
    }
}

/// The game's tuning a stress world runs with: balance.json's `vm` and `statuses`, which the
/// core holds no copy of (benches and tests read the file: rust/tests/common).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tuning {
    pub vm: VmParams,
    pub statuses: StatusParams,
}

/// The workload as a world config, under `tuning` (with every status chance 0: the workload
/// applies no status).
pub fn stress_config(seed: u64, tuning: &Tuning) -> WorldConfig {
    stress_config_in(WORLD, seed, tuning)
}

/// The workload's config in a world of `side` × `side` px (`stress_config`: `WORLD`).
pub fn stress_config_in(side: f32, seed: u64, tuning: &Tuning) -> WorldConfig {
    let hz = TICK_HZ as f32;
    WorldConfig {
        arena_w: side,
        arena_h: side,
        tick_hz: TICK_HZ,
        separation_strength: SEPARATION,
        separation_candidates: SEPARATION_CANDIDATES,
        grid_cells_per_entity: 2.0,
        hit_events_per_frame: 0,
        hit_flash_frames: 0,
        elite_hp_multiplier: 1.0,
        elite_reward_multiplier: 1.0,
        player: PlayerParams {
            max_hp: 1.0,
            radius: 1.0,
            move_speed: 0.0,
            armor: 0.0,
            dash_speed: 0.0,
            dash_duration: 0.0,
            dash_cooldown: 0.0,
            invulnerability: 0.0,
            crit_chance: 0.0,
            crit_multiplier: 1.0,
            mana_max: 0.0,
            mana_regen: 0.0,
            mana_leech: 0.0,
            auto_aim_range: f32::INFINITY,
        },
        pickups: PickupParams { pickup_radius: 0.0, magnet_speed: 0.0, collect_radius: 0.0, radius: 1.0 },
        enemy_kinds: vec![EnemyKind {
            name: "stress".into(),
            hp: 1.0e9,
            speed: CHASE * hz,
            radius: ENEMY_RADIUS,
            // Immortal in the workload; a test that lets it die counts on no drop.
            reward: 0,
            ..EnemyKind::default()
        }],
        rules: stress_rules(),
        vm: tuning.vm,
        statuses: StatusParams { chance: [0.0; ELEMENTS], ..tuning.statuses },
        turn_seconds: super::config::DEFAULT_TURN_SECONDS,
        // The workload applies no status: vulnerable and weak change nothing (a test that
        // needs them sets balance.json's, rust/tests/common).
        combat: super::config::CombatParams { vulnerable_multiplier: 1.0, weak_multiplier: 1.0 },
        mutators: Default::default(),
        seed,
    }
}

/// The side of a world that keeps the standard workload's density and shape at `enemies`:
/// `WORLD` up to 10k enemies, then growing with √N, so the crowd's disk (and the projectiles'
/// 1.2× disk) take the same share of the world as at 10k/20k. In the fixed `WORLD` the crowd's
/// disk outgrows the world past ~40k enemies and the crowd is crushed against the walls: big
/// counts then measure crushing (denser cells), not the same fight at scale (issue 18).
pub fn density_side(enemies: usize) -> f32 {
    WORLD * (enemies as f32 / 10_000.0).sqrt().max(1.0)
}

fn point_in(rng: &mut Rng, side: f32, layout: Layout, radius: f32) -> (f32, f32) {
    loop {
        let (x, y) = match layout {
            Layout::Uniform => (rng.range(0.0, side), rng.range(0.0, side)),
            Layout::Crowd => {
                let (u, v) = (rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
                if u * u + v * v > 1.0 {
                    continue;
                }
                (side * 0.5 + u * radius, side * 0.5 + v * radius)
            }
        };
        if (0.0..=side).contains(&x) && (0.0..=side).contains(&y) {
            return (x, y);
        }
    }
}

/// A stress world of `enemies` and `projectiles`, laid out and seeded.
pub fn stress_world(enemies: usize, projectiles: usize, layout: Layout, seed: u64, tuning: &Tuning) -> World {
    stress_world_in(WORLD, enemies, projectiles, layout, seed, tuning)
}

/// `stress_world` in a world of `side` × `side` px, the player at its centre (e.g.
/// `density_side(enemies)`).
pub fn stress_world_in(
    side: f32,
    enemies: usize,
    projectiles: usize,
    layout: Layout,
    seed: u64,
    tuning: &Tuning,
) -> World {
    let mut world = World::new(stress_config_in(side, seed, tuning)).expect("the stress config is valid");
    let mut rng = Rng::new(seed, Stream::Spawns);
    let crowd = (enemies as f32 * 400.0 / std::f32::consts::PI).sqrt();
    for _ in 0..enemies {
        let (x, y) = point_in(&mut rng, side, layout, crowd);
        world.spawn_enemy(0, false, x, y).expect("kind 0 exists");
    }
    let speed = PROJECTILE_SPEED * TICK_HZ as f32;
    for _ in 0..projectiles {
        let (x, y) = point_in(&mut rng, side, layout, crowd * 1.2);
        let a = rng.range(0.0, std::f32::consts::TAU);
        world.spawn_projectile(stress_projectile(x, y, libm::cosf(a) * speed, libm::sinf(a) * speed)).expect("finite");
    }
    world
}

/// One projectile of the workload (velocity in px/s).
pub fn stress_projectile(x: f32, y: f32, vx: f32, vy: f32) -> NewProjectile {
    NewProjectile {
        x,
        y,
        vx,
        vy,
        radius: PROJECTILE_RADIUS,
        damage: 1.0,
        crit_chance: 0.0,
        element: Element::Physical,
        pierce: PIERCE - 1,
        bounces: u32::MAX,
        life: f32::INFINITY,
        owner: Owner::Player,
        look: 0,
        behaviour: Default::default(),
    }
}

/// Steps the workload's 10 warm-up frames.
pub fn warm_up(world: &mut World) {
    for _ in 0..10 {
        world.step(&Controls::default(), &[]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The density-keeping world holds the crowd's disks at every size the benches use, with the
    /// same share of the world as at 10k; below 10k it is the standard world.
    #[test]
    fn density_side_keeps_the_crowd_inside_and_its_share_of_the_world() {
        let crowd = |n: usize| (n as f32 * 400.0 / std::f32::consts::PI).sqrt();
        assert_eq!(density_side(1_000), WORLD);
        let share = |n: usize| crowd(n) / density_side(n);
        for n in [10_000, 200_000, 1_000_000] {
            assert!(crowd(n) * 1.2 < density_side(n) / 2.0, "{n}: the projectiles' disk fits");
            assert!((share(n) / share(10_000) - 1.0).abs() < 1e-4, "{n}: the same share as at 10k");
        }
    }
}
