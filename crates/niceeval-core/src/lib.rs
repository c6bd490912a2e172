//! The core of `niceeval`, with no terminal and no CLI: the StreamEvent
//! contract and its folds (`model`), files to model (`load`), and every word,
//! number, mark and tone a surface shows (`view`). Dependencies point one
//! way: model ← load, model ← view.

pub mod analysis;
pub mod load;
pub mod model;
pub mod view;
