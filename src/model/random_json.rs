//! Deterministic random JSON documents for the tests that compare a parser
//! of ours with `serde_json::from_slice` (`compact`, `split`): nested objects
//! and arrays with escapes, numbers as written (and one past u64), unicode,
//! brackets inside strings, repeated keys and varied spacing.

pub struct RandomJson {
    seed: u64,
}

impl RandomJson {
    pub fn new(seed: u64) -> RandomJson {
        RandomJson { seed: seed.max(1) }
    }

    /// xorshift64: a number below `n`.
    fn below(&mut self, n: u64) -> u64 {
        self.seed ^= self.seed << 13;
        self.seed ^= self.seed >> 7;
        self.seed ^= self.seed << 17;
        self.seed % n
    }

    pub fn document(&mut self) -> String {
        self.value(0)
    }

    fn value(&mut self, depth: u32) -> String {
        const LEAVES: [&str; 9] =
            ["1", "-0.50", "1e3", "true", "null", r#""a\"b""#, r#""é\u00e9\n""#, r#""]}{[""#, "18446744073709551616"];
        let comma = if self.below(2) == 0 { "," } else { " , " };
        match if depth > 4 { 0 } else { self.below(3) } {
            0 => LEAVES[self.below(LEAVES.len() as u64) as usize].to_string(),
            1 => {
                let items: Vec<String> = (0..self.below(6)).map(|_| self.value(depth + 1)).collect();
                format!("[ {} ]", items.join(comma))
            }
            _ => {
                let items: Vec<String> =
                    (0..self.below(6)).map(|i| format!("\"k{}\" : {}", i % 4, self.value(depth + 1))).collect();
                format!("{{{}}}", items.join(comma))
            }
        }
    }
}
