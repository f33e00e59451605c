//! Step 10, pickups: the magnet (R-LOOP-2) pulls currency in within the
//! pickup radius and the player collects it on touch; game flow's
//! `CollectPickups` command takes it all at once.

use crate::sim::config::WorldConfig;
use crate::sim::events::{Event, EventKind};
use crate::sim::grid::Grid;
use crate::sim::player::Player;
use crate::sim::pools::Pickups;

/// Step 10: the pickups within reach of the player (`grid` is rebuilt over
/// them) move toward it by the magnet's speed, or are collected.
pub(super) fn collect(
    k: &mut Pickups,
    grid: &mut Grid,
    player: &Player,
    cfg: &WorldConfig,
    dt: f32,
    events: &mut Vec<Event>,
) {
    if k.is_empty() || !player.alive {
        return;
    }
    let pp = &cfg.pickups;
    let (px, py) = (player.x, player.y);
    let reach = (pp.pickup_radius + player.bought.pickup_radius_bonus).max(pp.collect_radius + player.radius);
    grid.rebuild(&k.x, &k.y, &k.radius, reach, cfg.grid_cells_per_entity);
    let pull = pp.magnet_speed * dt;
    let collect = pp.collect_radius + player.radius;
    grid.for_each_within(px, py, reach, |i| {
        let i = i as usize;
        let (dx, dy) = (px - k.x[i], py - k.y[i]);
        let d = (dx * dx + dy * dy).sqrt();
        if d < collect {
            k.dead[i] = true;
            events.push(Event::new(EventKind::CurrencyPicked, 0.0, 0.0, k.x[i], k.y[i], k.value[i] as f32));
        } else {
            let s = pull.min(d) / d;
            k.x[i] += dx * s;
            k.y[i] += dy * s;
        }
    });
}

/// The `CollectPickups` command: every pickup is collected where it lies.
pub(super) fn collect_all(k: &mut Pickups, events: &mut Vec<Event>) {
    for i in 0..k.len() {
        events.push(Event::new(EventKind::CurrencyPicked, 0.0, 0.0, k.x[i], k.y[i], k.value[i] as f32));
        k.dead[i] = true;
    }
}
