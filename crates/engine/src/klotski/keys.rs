//! Packed position keys and the open-addressing tables that hold them.

/// A packed canonical position.
pub(crate) trait Key: Copy + Eq + Ord + std::fmt::Debug {
    /// All ones: never the key of a position. A slot key of all ones would put two pieces
    /// on one anchor; a mask key of all ones would need a class mask covering every cell up
    /// to its top (then C has no room) or, with single-piece classes only, two classes with
    /// equally wide fields both at their top anchor (≤ 6 distinct widths sum to < 64 bits).
    const EMPTY: Self;
    fn hash(self) -> u64;
    /// Pack a list of small numbers, `bits` bits each (slot keys).
    fn pack(a: &[u8], bits: u32) -> Self;
    /// Unpack `out.len()` numbers of `bits` bits each.
    fn unpack(self, bits: u32, out: &mut [u8]);
}

/// Keys that are plain integers, for keys made of bit fields (mask keys).
pub(crate) trait Bits:
    Key + std::ops::BitXor<Output = Self> + std::ops::BitOr<Output = Self>
{
    const ZERO: Self;
    /// `v << off` in this width.
    fn field(v: u64, off: u32) -> Self;
    /// The `width` bits at `off`.
    fn extract(self, off: u32, width: u32) -> u64;
}

#[inline(always)]
fn mix(x: u64) -> u64 {
    let x = (x ^ (x >> 31)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x ^ (x >> 29)
}

/// [`Key`] and [`Bits`] for a plain unsigned integer; `$hash` folds a key `$k` to 64 bits.
macro_rules! int_key {
    ($t:ty, |$k:ident| $hash:expr) => {
        impl Key for $t {
            const EMPTY: $t = <$t>::MAX;
            #[inline(always)]
            fn hash(self) -> u64 {
                let $k = self;
                $hash
            }
            #[inline(always)]
            fn pack(a: &[u8], bits: u32) -> $t {
                a.iter().rev().fold(0, |k: $t, &x| (k << bits) | x as $t)
            }
            #[inline(always)]
            fn unpack(self, bits: u32, out: &mut [u8]) {
                let m: $t = (1 << bits) - 1;
                for (i, o) in out.iter_mut().enumerate() {
                    *o = ((self >> (bits * i as u32)) & m) as u8;
                }
            }
        }

        impl Bits for $t {
            const ZERO: $t = 0;
            #[inline(always)]
            fn field(v: u64, off: u32) -> $t {
                (v as $t) << off
            }
            #[inline(always)]
            fn extract(self, off: u32, width: u32) -> u64 {
                let m = if width >= 64 {
                    u64::MAX
                } else {
                    (1u64 << width) - 1
                };
                (self >> off) as u64 & m
            }
        }
    };
}

int_key!(u64, |k| mix(k));
int_key!(u128, |k| mix(k as u64 ^ mix((k >> 64) as u64)));

/// Keys of boards with very many pieces: up to 70 anchors of 6 bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Wide([u64; 7]);

impl Key for Wide {
    const EMPTY: Wide = Wide([u64::MAX; 7]);
    fn hash(self) -> u64 {
        self.0.iter().fold(0u64, |h, &w| mix(h ^ w))
    }
    fn pack(a: &[u8], bits: u32) -> Wide {
        let per = (64 / bits) as usize;
        let mut w = [0u64; 7];
        for (i, &x) in a.iter().enumerate() {
            w[i / per] |= (x as u64) << (bits * (i % per) as u32);
        }
        Wide(w)
    }
    fn unpack(self, bits: u32, out: &mut [u8]) {
        let per = (64 / bits) as usize;
        let m = (1u64 << bits) - 1;
        for (i, o) in out.iter_mut().enumerate() {
            *o = ((self.0[i / per] >> (bits * (i % per) as u32)) & m) as u8;
        }
    }
}

/// An open-addressing (linear probing) set of keys, at most half full.
pub(crate) struct Table<K: Key> {
    slots: Vec<K>,
    len: usize,
    shift: u32,
}

impl<K: Key> Table<K> {
    pub fn new() -> Self {
        Table {
            slots: vec![K::EMPTY; 1 << 14],
            len: 0,
            shift: 64 - 14,
        }
    }
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.len
    }
    /// Bytes the slot array holds (its allocation, not the keys in it).
    pub fn bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<K>()
    }
    /// Whether the next [`Table::insert`] of a new key doubles the slot array; while it
    /// rehashes, the old array (`bytes()`) and the new one (`2 × bytes()`) are both held.
    #[inline(always)]
    pub fn next_insert_grows(&self) -> bool {
        (self.len + 1) * 2 > self.slots.len()
    }
    /// Insert `k`; true if it was not there.
    #[inline(always)]
    pub fn insert(&mut self, k: K) -> bool {
        if self.next_insert_grows() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = (k.hash() >> self.shift) as usize;
        loop {
            let s = self.slots[i];
            if s == K::EMPTY {
                self.slots[i] = k;
                self.len += 1;
                return true;
            }
            if s == k {
                return false;
            }
            i = (i + 1) & mask;
        }
    }
    fn grow(&mut self) {
        let bigger = vec![K::EMPTY; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, bigger);
        self.shift -= 1;
        self.len = 0;
        for k in old {
            if k != K::EMPTY {
                self.insert(k);
            }
        }
    }
}

/// An open-addressing map from keys to `u32` values (the generator's index of positions).
///
/// Keys and values are two arrays: a `(u128, u32)` pair takes 32 bytes with its
/// padding, the two arrays 20. What [`IndexMap::bytes`] charges to a meter is still one
/// `(key, value)` array's size, so every bound decides as before (a seed keeps its board)
/// while the memory actually held is less than the charge.
pub(crate) struct IndexMap<K: Key> {
    keys: Vec<K>,
    vals: Vec<u32>,
    len: usize,
    shift: u32,
}

impl<K: Key> IndexMap<K> {
    pub fn new() -> Self {
        IndexMap {
            keys: vec![K::EMPTY; 1 << 12],
            vals: vec![0; 1 << 12],
            len: 0,
            shift: 64 - 12,
        }
    }
    /// Bytes charged for the slots: one `(key, value)` array's (see the type's documentation).
    pub fn bytes(&self) -> usize {
        self.keys.capacity() * std::mem::size_of::<(K, u32)>()
    }
    /// [`IndexMap::get_or_insert`], its growth charged to `meter` before it allocates
    /// (`Err(bytes)` when the rehash would hold more than the meter allows).
    #[inline(always)]
    pub fn get_or_insert_metered(
        &mut self,
        k: K,
        v: u32,
        meter: &mut crate::budget::Meter,
    ) -> std::result::Result<(u32, bool), usize> {
        if (self.len + 1) * 2 > self.keys.len() {
            meter.grow(2 * self.bytes(), self.bytes())?;
        }
        Ok(self.get_or_insert(k, v))
    }
    /// The value of `k`, inserting `v` first if `k` is new; the flag says whether it was new.
    #[inline(always)]
    pub fn get_or_insert(&mut self, k: K, v: u32) -> (u32, bool) {
        if (self.len + 1) * 2 > self.keys.len() {
            self.grow();
        }
        let mask = self.keys.len() - 1;
        let mut i = (k.hash() >> self.shift) as usize;
        loop {
            let s = self.keys[i];
            if s == K::EMPTY {
                self.keys[i] = k;
                self.vals[i] = v;
                self.len += 1;
                return (v, true);
            }
            if s == k {
                return (self.vals[i], false);
            }
            i = (i + 1) & mask;
        }
    }
    #[cfg(test)]
    pub fn get(&self, k: K) -> Option<u32> {
        let mask = self.keys.len() - 1;
        let mut i = (k.hash() >> self.shift) as usize;
        loop {
            let s = self.keys[i];
            if s == K::EMPTY {
                return None;
            }
            if s == k {
                return Some(self.vals[i]);
            }
            i = (i + 1) & mask;
        }
    }
    fn grow(&mut self) {
        let n = self.keys.len() * 2;
        let old_keys = std::mem::replace(&mut self.keys, vec![K::EMPTY; n]);
        let old_vals = std::mem::replace(&mut self.vals, vec![0; n]);
        self.shift -= 1;
        self.len = 0;
        for (k, v) in old_keys.into_iter().zip(old_vals) {
            if k != K::EMPTY {
                self.get_or_insert(k, v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips_in_every_width() {
        for bits in [4u32, 5, 6] {
            let a: Vec<u8> = (0..10).map(|i| ((i * 7 + 3) % (1 << bits)) as u8).collect();
            let mut out = [0u8; 10];
            u64::pack(&a, bits).unpack(bits, &mut out);
            assert_eq!(out[..], a[..]);
            u128::pack(&a, bits).unpack(bits, &mut out);
            assert_eq!(out[..], a[..]);
            Wide::pack(&a, bits).unpack(bits, &mut out);
            assert_eq!(out[..], a[..]);
        }
        let k = u128::field(0xabcde, 70) ^ u128::field(3, 2);
        assert_eq!(k.extract(70, 20), 0xabcde);
        assert_eq!(k.extract(2, 5), 3);
        assert_eq!(u64::field(5, 10).extract(10, 3), 5);
    }

    #[test]
    fn table_sets_and_maps() {
        let mut t = Table::<u64>::new();
        for i in 0..10_000u64 {
            assert!(t.insert(i * 7919));
        }
        for i in 0..10_000u64 {
            assert!(!t.insert(i * 7919));
        }
        assert_eq!(t.len(), 10_000);
        let mut m = IndexMap::<u128>::new();
        for i in 0..5000u128 {
            assert_eq!(m.get_or_insert(i << 70, i as u32), (i as u32, true));
        }
        assert_eq!(m.get(7 << 70), Some(7));
        assert_eq!(m.get(5001 << 70), None);
        assert_eq!(m.get_or_insert(7 << 70, 99), (7, false));
    }
}
