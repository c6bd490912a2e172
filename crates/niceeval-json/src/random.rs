//! Deterministic random JSON text for the tests that compare a reader of
//! ours with `serde_json` (`compact`, `split`, `json_scan`, `json_node`, the
//! raw-event check): nested objects and arrays with varied spacing, escapes
//! and surrogate pairs, brackets inside strings, numbers as written (with
//! exponents and one past u64), and keys that repeat within an object or not.

pub struct RandomJson {
    state: u64,
    repeat_keys: bool,
}

impl RandomJson {
    /// Objects may hold a key twice (serde_json keeps the last).
    pub fn new(seed: u64) -> RandomJson {
        RandomJson { state: seed, repeat_keys: true }
    }

    /// Every object's keys are distinct (what a raw event may be).
    pub fn distinct_keys(seed: u64) -> RandomJson {
        RandomJson { state: seed, repeat_keys: false }
    }

    /// splitmix64: a number below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    }

    pub fn document(&mut self) -> String {
        self.value(0)
    }

    fn ws(&mut self) -> &'static str {
        [" ", "", "\n ", "\t", ""][self.below(5) as usize]
    }

    fn string(&mut self) -> String {
        const PARTS: [&str; 13] =
            ["a", "é", "\\n", "\\\"", "\\\\", "\\u00e9", "\\ud83d\\ude00", " ", "}", "]", ",", ":", "x"];
        let mut s = String::from("\"");
        for _ in 0..self.below(6) {
            s.push_str(PARTS[self.below(PARTS.len() as u64) as usize]);
        }
        s.push('"');
        s
    }

    fn value(&mut self, depth: u32) -> String {
        const NUMBERS: [&str; 10] =
            ["0", "-1", "2.50", "1e3", "-0.0", "12345678901234567890", "18446744073709551616", "1E-2", "5E+1", "7e-0"];
        match if depth > 3 { self.below(5) } else { self.below(7) } {
            0 => ["null", "true", "false"][self.below(3) as usize].to_string(),
            1 => NUMBERS[self.below(NUMBERS.len() as u64) as usize].into(),
            2..=4 => self.string(),
            5 => {
                let items: Vec<String> = (0..self.below(5))
                    .map(|_| format!("{}{}{}", self.ws(), self.value(depth + 1), self.ws()))
                    .collect();
                format!("[{}]", items.join(","))
            }
            _ => {
                let items: Vec<String> = (0..self.below(5))
                    .map(|i| {
                        let key = if self.repeat_keys { i % 2 } else { i };
                        format!("{}\"k{key}\"{}:{}{}", self.ws(), self.ws(), self.ws(), self.value(depth + 1))
                    })
                    .collect();
                format!("{{{}}}", items.join(","))
            }
        }
    }
}
