//! The zones' pool: areas on the ground that spells leave.

use crate::sim::config::Element;

pool! {
    /// Areas on the ground (R-VM-10 zones: black hole, healing mist, poison pool).
    pub struct Zones {
        hash section "zones";
        compact: expired(life);
        #[allow(clippy::too_many_arguments)]
        fn push(x: f32, y: f32, radius: f32, life: f32, pull: f32, heal: f32, dps: f32, element: Element, look: u16);
        x: f32 = x, hash(f32s);
        y: f32 = y, hash(f32s);
        radius: f32 = radius, hash(f32s);
        /// Seconds left.
        life: f32 = life, hash(f32s);
        /// Ticks until the zone's next status roll (0: this frame; R-DMG-2,
        /// world/zones.rs `update_zones`).
        status_in: u32 = 0, hash(u32s);
        /// px per tick toward the centre for enemies inside. This and the
        /// columns below are fixed at spawn by the spell: not hashed.
        pull: f32 = pull, hash(no);
        /// Player HP per second while inside.
        heal: f32 = heal, hash(no);
        /// Damage per second to enemies inside.
        dps: f32 = dps, hash(no);
        element: Element = element, hash(no);
        look: u16 = look, hash(no);
    }
}
