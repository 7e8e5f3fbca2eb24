//! Permutation ranks: a number-slide board of n cells is one of n! orderings, so its rank
//! (Lehmer code read as a mixed-radix number) fits in ⌈log2 n!⌉ bits — 66 bytes for 10×10
//! instead of 100 bytes of tiles. A tiny unsigned big integer does the arithmetic.

use crate::error::{Error, Result};

/// Unsigned big integer, little-endian 32-bit limbs, no leading zero limbs.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Big(Vec<u32>);

impl Big {
    fn mul_add(&mut self, m: u32, a: u32) {
        let mut carry = a as u64;
        for limb in &mut self.0 {
            let v = *limb as u64 * m as u64 + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
        self.trim();
    }
    /// Divides in place by `d` (> 0) and returns the remainder.
    fn div_rem(&mut self, d: u32) -> u32 {
        let mut rem = 0u64;
        for limb in self.0.iter_mut().rev() {
            let cur = (rem << 32) | *limb as u64;
            *limb = (cur / d as u64) as u32;
            rem = cur % d as u64;
        }
        self.trim();
        rem as u32
    }
    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }
    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }
    fn bit_len(&self) -> usize {
        match self.0.last() {
            None => 0,
            Some(&top) => (self.0.len() - 1) * 32 + (32 - top.leading_zeros() as usize),
        }
    }
    fn to_be_bytes(&self, len: usize) -> Vec<u8> {
        let mut out = vec![0u8; len];
        for (i, limb) in self.0.iter().enumerate() {
            for k in 0..4 {
                let byte_index = i * 4 + k;
                if byte_index < len {
                    out[len - 1 - byte_index] = (limb >> (8 * k)) as u8;
                }
            }
        }
        out
    }
    fn from_be_bytes(bytes: &[u8]) -> Big {
        let mut limbs = vec![0u32; bytes.len().div_ceil(4)];
        for (byte_index, &b) in bytes.iter().rev().enumerate() {
            limbs[byte_index / 4] |= (b as u32) << (8 * (byte_index % 4));
        }
        let mut big = Big(limbs);
        big.trim();
        big
    }
}

/// Bytes needed for the rank of a permutation of `n` items: the bit length of n! − 1.
pub fn rank_len(n: usize) -> usize {
    let mut f = Big(vec![1]);
    for k in 2..=n as u32 {
        f.mul_add(k, 0);
    }
    // f − 1 has the same bit length as f unless f is a power of two (only 1! and 2!).
    let bits = if n <= 2 {
        n.saturating_sub(1)
    } else {
        f.bit_len()
    };
    bits.div_ceil(8).max(1)
}

/// The rank of `perm` (a permutation of 0..n) as `rank_len(n)` big-endian bytes.
/// The caller guarantees `perm` is a permutation.
pub fn rank(perm: &[u8]) -> Vec<u8> {
    let n = perm.len();
    let mut big = Big::default();
    for i in 0..n {
        let smaller_after = perm[i + 1..].iter().filter(|&&p| p < perm[i]).count() as u32;
        big.mul_add((n - i) as u32, smaller_after);
    }
    big.to_be_bytes(rank_len(n))
}

/// The permutation of 0..n whose rank is `bytes`; a rank ≥ n! is a bad code.
pub fn unrank(bytes: &[u8], n: usize) -> Result<Vec<u8>> {
    debug_assert_eq!(bytes.len(), rank_len(n));
    let mut big = Big::from_be_bytes(bytes);
    let mut digits = vec![0u32; n];
    for i in (0..n).rev() {
        digits[i] = big.div_rem((n - i) as u32);
    }
    if !big.is_zero() {
        return Err(Error::bad_code(
            "the board number is larger than the number of possible boards",
        ));
    }
    let mut free: Vec<u8> = (0..n as u8).collect();
    Ok(digits.iter().map(|&d| free.remove(d as usize)).collect())
}

/// Whether a number-slide board (row-major tiles, 0 = blank) can reach the goal
/// 1, 2, …, W·H−1, blank. Rule for every W, H: the parity of the permutation (blank counted
/// as the last tile) equals the parity of the blank's distance to the bottom-right corner.
pub fn slide_solvable(w: usize, h: usize, tiles: &[u8]) -> bool {
    let n = w * h;
    // target[i] = the cell where the tile now at cell i belongs.
    let target: Vec<usize> = tiles
        .iter()
        .map(|&t| if t == 0 { n - 1 } else { t as usize - 1 })
        .collect();
    let mut seen = vec![false; n];
    let mut cycles = 0;
    for start in 0..n {
        if !seen[start] {
            cycles += 1;
            let mut i = start;
            while !seen[i] {
                seen[i] = true;
                i = target[i];
            }
        }
    }
    let perm_parity = (n - cycles) % 2;
    let blank = tiles.iter().position(|&t| t == 0).unwrap_or(n - 1);
    let dist = (h - 1 - blank / w) + (w - 1 - blank % w);
    perm_parity == dist % 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths() {
        assert_eq!(rank_len(1), 1);
        assert_eq!(rank_len(4), 1); // 23 → 5 bits
        assert_eq!(rank_len(9), 3); // 362879 → 19 bits
        assert_eq!(rank_len(16), 6); // 16! − 1 < 2^45
        assert_eq!(rank_len(100), 66); // log2 100! ≈ 524.8
    }

    #[test]
    fn every_permutation_of_five_has_its_own_rank() {
        let mut perm = [0u8, 1, 2, 3, 4];
        let mut seen = std::collections::HashSet::new();
        // Heap's algorithm over all 120 permutations.
        fn heap(k: usize, a: &mut [u8; 5], out: &mut Vec<[u8; 5]>) {
            if k == 1 {
                out.push(*a);
                return;
            }
            for i in 0..k {
                heap(k - 1, a, out);
                if k.is_multiple_of(2) {
                    a.swap(i, k - 1)
                } else {
                    a.swap(0, k - 1)
                }
            }
        }
        let mut all = Vec::new();
        heap(5, &mut perm, &mut all);
        for p in &all {
            let r = rank(p);
            assert_eq!(unrank(&r, 5).unwrap(), p.to_vec());
            assert!(seen.insert(r));
        }
        assert_eq!(seen.len(), 120);
        // Rank 120 (= 5!) does not exist.
        assert!(unrank(&[120], 5).is_err());
        assert_eq!(unrank(&[119], 5).unwrap(), vec![4, 3, 2, 1, 0]);
        assert_eq!(unrank(&[0], 5).unwrap(), vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn big_permutations_round_trip() {
        let n = 100;
        let mut p: Vec<u8> = (0..n as u8).collect();
        let mut x = 12345u64;
        for i in (1..n).rev() {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            p.swap(i, (x >> 33) as usize % (i + 1));
        }
        let r = rank(&p);
        assert_eq!(r.len(), 66);
        assert_eq!(unrank(&r, n).unwrap(), p);
        let rev: Vec<u8> = (0..n as u8).rev().collect();
        assert_eq!(unrank(&rank(&rev), n).unwrap(), rev);
        assert!(unrank(&[0xff; 66], n).is_err());
    }

    #[test]
    fn solvability_rule() {
        // Goal and one-move-away boards are solvable; a swapped pair is not.
        assert!(slide_solvable(3, 3, &[1, 2, 3, 4, 5, 6, 7, 8, 0]));
        assert!(slide_solvable(3, 3, &[1, 2, 3, 4, 5, 6, 7, 0, 8]));
        assert!(slide_solvable(3, 3, &[1, 2, 3, 4, 5, 0, 7, 8, 6]));
        assert!(!slide_solvable(3, 3, &[2, 1, 3, 4, 5, 6, 7, 8, 0]));
        assert!(slide_solvable(
            4,
            4,
            &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15]
        ));
        assert!(!slide_solvable(
            4,
            4,
            &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 14, 0]
        ));
        // 2×2: exactly 12 of the 24 boards are solvable.
        let count = (0..24u8)
            .map(|r| unrank(&[r], 4).unwrap())
            .filter(|t| slide_solvable(2, 2, t))
            .count();
        assert_eq!(count, 12);
    }

    #[test]
    fn solvability_agrees_with_a_search_on_2x3() {
        // Breadth-first search from the goal over 2×3 (W=3, H=2) finds every reachable board.
        let (w, h) = (3usize, 2usize);
        let goal = vec![1u8, 2, 3, 4, 5, 0];
        let mut seen = std::collections::HashSet::from([goal.clone()]);
        let mut queue = std::collections::VecDeque::from([goal]);
        while let Some(b) = queue.pop_front() {
            let z = b.iter().position(|&t| t == 0).unwrap();
            let (r, c) = (z / w, z % w);
            let mut nb = Vec::new();
            if r > 0 {
                nb.push(z - w)
            }
            if r + 1 < h {
                nb.push(z + w)
            }
            if c > 0 {
                nb.push(z - 1)
            }
            if c + 1 < w {
                nb.push(z + 1)
            }
            for n in nb {
                let mut next = b.clone();
                next.swap(z, n);
                if seen.insert(next.clone()) {
                    queue.push_back(next);
                }
            }
        }
        assert_eq!(seen.len(), 360);
        let mut perm: Vec<u8> = (0..6).collect();
        let mut all = Vec::new();
        fn permute(k: usize, a: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
            if k == a.len() {
                out.push(a.clone());
                return;
            }
            for i in k..a.len() {
                a.swap(k, i);
                permute(k + 1, a, out);
                a.swap(k, i);
            }
        }
        permute(0, &mut perm, &mut all);
        for p in all {
            assert_eq!(slide_solvable(w, h, &p), seen.contains(&p), "{p:?}");
        }
    }
}
