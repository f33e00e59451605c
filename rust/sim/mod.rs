//! The simulation: struct-of-arrays pools stepped by plain systems, in the
//! order documented at the top of `World::step` (world/mod.rs).

pub mod boss;
pub mod combat;
pub mod commands;
pub mod config;
pub mod contract;
pub mod error;
pub mod events;
pub mod grid;
pub mod hash;
pub mod headless;
pub mod ids;
pub mod kite;
pub mod limits;
pub mod movement;
pub mod packs;
pub mod player;
pub mod pools;
pub mod relics;
pub mod rng;
pub mod scan;
pub mod stress;
pub mod tasks;
pub mod world;

pub use config::{Behavior, Element, EnemyKind, PickupParams, PlayerParams, Rules, WorldConfig};
pub use error::CoreError;
pub use world::{PlayerStats, StepCounts, World};
