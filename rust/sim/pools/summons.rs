//! The summons' pool: the player's familiars, each casting its own program.

use crate::vm::program::Span;

pool! {
    /// The player's summons (R-VM-5): each casts its own program on a timer.
    pub struct Summons {
        hash section "summons";
        compact: expired(life);
        #[allow(clippy::too_many_arguments)]
        fn push(x: f32, y: f32, life: f32, period: f32, program: Span, share: f32, look: u16);
        x: f32 = x, hash(f32s);
        y: f32 = y, hash(f32s);
        /// Seconds left.
        life: f32 = life, hash(f32s);
        /// Seconds to the next cast.
        timer: f32 = 0.0, hash(f32s);
        /// R-VM-5: each summon walks its program as its own deck.
        cursor: u32 = program.start, hash(u32s);
        /// Seconds between casts. This and the columns below are fixed at
        /// spawn: not hashed.
        period: f32 = period, hash(no);
        program: Span = program, hash(no);
        /// R-MANA-5: the share of each card's cost its casts pay.
        share: f32 = share, hash(no);
        look: u16 = look, hash(no);
    }
}
