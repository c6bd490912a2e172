//! The plain layout on grapheme-heavy strings (the `layout` fuzz target's
//! harness, run here on random inputs so `cargo test` covers it too).

#[path = "../fuzz/harness.rs"]
mod harness;

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn every_line_fits_and_every_box_line_is_exact(data in prop::collection::vec(any::<u8>(), 0..300)) {
        harness::layout(&data);
    }
}

#[test]
fn five_fire_hearts_in_a_tool_name() {
    // The probe's input: a tool name of five U+2764 U+FE0F U+200D U+1F525.
    // Width byte, four empty strings (the tool name is the fifth), five hearts.
    let mut data = vec![40u8, 0xff, 0xff, 0xff, 0xff];
    data.extend([7, 7, 7, 7, 7]);
    for width in 0..=120u8 {
        data[0] = width;
        harness::layout(&data);
    }
}
