//! The headless simulator's kiting bot (R-SIM-1), its steering in one place: the Python bot calls
//! it on a frame's rows (`_core.kite`), and `World.play_bot` on the world's own pools between the
//! frames Python needs to see (issue 44). It is a test harness, not game rules: its tuning is the
//! bot's (`artificer.sim.bot`), handed in as `KiteParams`.
//!
//! Each enemy within `danger` pushes the bot away, weighted `(danger − d) / danger / max(d, 1)`
//! for its distance `d`, summed in row order; within `wall_margin` of a wall the bot steers back
//! inward; with no enemy within `safe` it walks to the nearest pickup; the sum, normalised, is the
//! move. Within `wall_margin` of a wall with an enemy within `safe`, the push and the wall can
//! cancel out and pin the bot in a corner (a player would slip along the wall): it takes instead
//! the one of `HEADINGS` whose path (half and all of `wall_margin` ahead, inside the arena) has
//! the thinnest crowd (`crowd`). An enemy within `panic` (centre to centre) with the dash ready
//! makes it dash. Distances are `hypot` in f64 over the rows' f32 points.

/// The bot's tuning (px; weights are plain factors).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KiteParams {
    pub danger: f64,
    pub panic: f64,
    pub safe: f64,
    pub wall_margin: f64,
    pub wall_weight: f64,
    pub pickup_weight: f64,
}

/// What the bot does this frame: the move (None: stand, the push is nil) and the dash.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Steer {
    pub move_xy: Option<(f32, f32)>,
    pub dash: bool,
}

/// Where the bot stands and what it reads of the player.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bot {
    pub x: f64,
    pub y: f64,
    pub dash_cooldown: f64,
    pub arena: (f64, f64),
}

/// The bot's steering over `enemies` and `pickups` (points, in row order).
pub fn steer<E, P>(bot: Bot, enemies: E, pickups: P, k: &KiteParams) -> Steer
where
    E: IntoIterator<Item = (f32, f32)> + Clone,
    P: IntoIterator<Item = (f32, f32)> + Clone,
{
    let (mut move_x, mut move_y, nearest) = repel(enemies.clone(), bot.x, bot.y, k.danger);
    move_x += inward(bot.x, bot.arena.0, k);
    move_y += inward(bot.y, bot.arena.1, k);
    if nearest <= k.safe && near_wall(&bot, k) {
        if let Some((ux, uy)) = slip(&bot, enemies, k) {
            (move_x, move_y) = (ux, uy);
        }
    } else if nearest > k.safe {
        if let Some((tx, ty)) = nearest_point(pickups, bot.x, bot.y) {
            let (to_x, to_y) = (f64::from(tx) - bot.x, f64::from(ty) - bot.y);
            let reach = to_x.hypot(to_y).max(1.0);
            move_x += k.pickup_weight * to_x / reach;
            move_y += k.pickup_weight * to_y / reach;
        }
    }
    let norm = move_x.hypot(move_y);
    let move_xy = (norm > 1e-6).then(|| ((move_x / norm) as f32, (move_y / norm) as f32));
    Steer { move_xy, dash: nearest < k.panic && bot.dash_cooldown <= 0.0 }
}

/// The headings the bot weighs against a wall: 16 unit vectors evenly round from +x (constants,
/// not `cos`/`sin`, so every platform steers alike).
const HEADINGS: [(f64, f64); 16] = {
    const C1: f64 = 0.923_879_532_511_286_7; // cos 22.5°
    const S1: f64 = 0.382_683_432_365_089_8; // sin 22.5°
    const H: f64 = std::f64::consts::FRAC_1_SQRT_2;
    [
        (1.0, 0.0),
        (C1, S1),
        (H, H),
        (S1, C1),
        (0.0, 1.0),
        (-S1, C1),
        (-H, H),
        (-C1, S1),
        (-1.0, 0.0),
        (-C1, -S1),
        (-H, -H),
        (-S1, -C1),
        (0.0, -1.0),
        (S1, -C1),
        (H, -H),
        (C1, -S1),
    ]
};

/// Whether the bot stands within `wall_margin` of a wall.
fn near_wall(bot: &Bot, k: &KiteParams) -> bool {
    let near = |pos: f64, size: f64| pos < k.wall_margin || pos > size - k.wall_margin;
    near(bot.x, bot.arena.0) || near(bot.y, bot.arena.1)
}

/// Against a wall: the heading whose path — the points half and all of `wall_margin` ahead, both
/// inside the arena — has the thinnest crowd (`crowd` within `danger`, summed), the first of
/// equals; None when every heading leaves the arena.
fn slip<E>(bot: &Bot, enemies: E, k: &KiteParams) -> Option<(f64, f64)>
where
    E: IntoIterator<Item = (f32, f32)> + Clone,
{
    let inside = |x: f64, y: f64| (0.0..=bot.arena.0).contains(&x) && (0.0..=bot.arena.1).contains(&y);
    let mut best: Option<(f64, (f64, f64))> = None;
    for (ux, uy) in HEADINGS {
        let ahead = |share: f64| (bot.x + ux * k.wall_margin * share, bot.y + uy * k.wall_margin * share);
        let ((hx, hy), (fx, fy)) = (ahead(0.5), ahead(1.0));
        if !inside(fx, fy) {
            continue;
        }
        let score = crowd(enemies.clone(), hx, hy, k.danger) + crowd(enemies.clone(), fx, fy, k.danger);
        if best.is_none_or(|(b, _)| score < b) {
            best = Some((score, (ux, uy)));
        }
    }
    best.map(|(_, heading)| heading)
}

/// How crowded `(x, y)` is: each point closer than `radius` counts `(radius − d) / radius`.
fn crowd(points: impl IntoIterator<Item = (f32, f32)>, x: f64, y: f64, radius: f64) -> f64 {
    let mut sum = 0.0;
    for (px, py) in points {
        let (ox, oy) = (x - f64::from(px), y - f64::from(py));
        if !may_be_within(ox, oy, radius) {
            continue;
        }
        let d = ox.hypot(oy);
        if d < radius {
            sum += (radius - d) / radius;
        }
    }
    sum
}

/// The push back inward within `wall_margin` of a wall, on one axis of length `size`.
fn inward(pos: f64, size: f64, k: &KiteParams) -> f64 {
    if pos < k.wall_margin {
        k.wall_weight * (k.wall_margin - pos) / k.wall_margin
    } else if pos > size - k.wall_margin {
        -(k.wall_weight * (pos - (size - k.wall_margin)) / k.wall_margin)
    } else {
        0.0
    }
}

/// The push away from the points near `(x, y)`, and how near the nearest is: `(push_x, push_y,
/// nearest)`. Each point closer than `radius` pushes along `(x, y) − point`, weighted
/// `(radius − d) / radius / max(d, 1)`, summed in order; `nearest` is the smallest `d` of all
/// points (infinity for none).
pub fn repel(points: impl IntoIterator<Item = (f32, f32)>, x: f64, y: f64, radius: f64) -> (f64, f64, f64) {
    let (mut push_x, mut push_y, mut nearest) = (0.0_f64, 0.0_f64, f64::INFINITY);
    for (px, py) in points {
        let (ox, oy) = (x - f64::from(px), y - f64::from(py));
        // A point farther than the radius and than the nearest so far changes nothing.
        if !may_be_within(ox, oy, nearest.max(radius)) {
            continue;
        }
        let d = ox.hypot(oy);
        nearest = nearest.min(d);
        if d < radius {
            let weight = (radius - d) / radius / d.max(1.0);
            push_x += ox * weight;
            push_y += oy * weight;
        }
    }
    (push_x, push_y, nearest)
}

/// The index of the point nearest `(x, y)` (hypot in f64, the first of equals), None for none.
pub fn nearest_index(points: impl IntoIterator<Item = (f32, f32)>, x: f64, y: f64) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, (px, py)) in points.into_iter().enumerate() {
        let (ox, oy) = (f64::from(px) - x, f64::from(py) - y);
        if !may_be_within(ox, oy, best.map_or(f64::INFINITY, |(_, b)| b)) {
            continue;
        }
        let d = ox.hypot(oy);
        if best.is_none_or(|(_, b)| d < b) {
            best = Some((i, d));
        }
    }
    best.map(|(i, _)| i)
}

/// The point nearest `(x, y)`.
fn nearest_point<P>(points: P, x: f64, y: f64) -> Option<(f32, f32)>
where
    P: IntoIterator<Item = (f32, f32)> + Clone,
{
    nearest_index(points.clone(), x, y).and_then(|i| points.into_iter().nth(i))
}

/// The relative margin `may_be_within` allows the squares: well over their rounding (a few parts
/// in 2^52), well under any distance that matters.
const SQUARES_MARGIN: f64 = 1e-12;

/// Whether `hypot(ox, oy)` may be at most `limit` (false: it is surely greater), judged on the
/// squares without the `hypot` call (libm's, the costly part of a pass over a crowd). The squares'
/// rounding is a few parts in 2^52; `SQUARES_MARGIN` covers it, so a point this rejects has a
/// hypot strictly over `limit` and the results stay `hypot`'s to the bit. An infinite limit, and
/// points that are not numbers, always go on to `hypot` (points are f32: no square overflows).
fn may_be_within(ox: f64, oy: f64, limit: f64) -> bool {
    let d2 = ox * ox + oy * oy;
    limit == f64::INFINITY || d2.is_nan() || d2 < limit * limit * (1.0 + SQUARES_MARGIN)
}

#[cfg(test)]
mod tests {
    use super::*;

    const K: KiteParams = KiteParams {
        danger: 220.0,
        panic: 44.0,
        safe: 160.0,
        wall_margin: 160.0,
        wall_weight: 2.5,
        pickup_weight: 1.0,
    };

    fn bot(x: f64, y: f64) -> Bot {
        Bot { x, y, dash_cooldown: 0.0, arena: (2560.0, 1600.0) }
    }

    #[test]
    fn it_walks_away_from_an_enemy_and_dashes_when_it_is_close() {
        let s = steer(bot(1000.0, 800.0), [(1100.0, 800.0)], [], &K);
        assert_eq!(s.move_xy, Some((-1.0, 0.0)));
        assert!(!s.dash);
        let s = steer(bot(1000.0, 800.0), [(1030.0, 800.0)], [], &K);
        assert!(s.dash);
    }

    #[test]
    fn safe_it_walks_to_the_nearest_pickup_and_alone_it_stands() {
        let s = steer(bot(1000.0, 800.0), [], [(1000.0, 900.0), (1000.0, 700.0 - 1.0)], &K);
        assert_eq!(s.move_xy, Some((0.0, 1.0)));
        assert_eq!(steer(bot(1000.0, 800.0), [], [], &K).move_xy, None);
    }

    #[test]
    fn pinned_in_a_corner_it_slips_out_along_the_emptier_wall() {
        // The crowd comes from the open field and along the floor: the bot in the corner (10, 10)
        // would be pushed into it; it leaves along the left wall, where nobody is.
        let crowd: Vec<(f32, f32)> =
            (0..12).map(|i| (60.0 + 15.0 * i as f32, 40.0 + 10.0 * (i % 3) as f32)).chain([(90.0, 90.0)]).collect();
        let s = steer(bot(10.0, 10.0), crowd.iter().copied(), [], &K);
        let (mx, my) = s.move_xy.expect("it moves");
        assert!(my > 0.9 && mx.abs() < 0.4, "it slips up the left wall, not {mx}, {my}");
    }

    #[test]
    fn near_a_wall_it_steers_inward() {
        let s = steer(bot(10.0, 800.0), [], [], &K);
        assert_eq!(s.move_xy, Some((1.0, 0.0)));
    }
}
