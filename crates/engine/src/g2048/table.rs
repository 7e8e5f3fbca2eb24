//! The transposition table of the 2048 searches ([`super::ai`], [`super::grid_ai`]): a fixed
//! array of slots owned by the searching thread, an entry holding a board's value at a depth,
//! reused across searches by tagging entries with a search number (no search sees another's
//! entries, so results never depend on earlier searches).

/// A board's key in the table.
pub(super) trait Key: Copy + Eq + Default {
    /// 64 bits whose top bits pick the key's slot.
    fn spread(self) -> u64;
}

#[derive(Clone, Copy, Default)]
struct Slot<K> {
    key: K,
    value: f32,
    search: u16,
    depth: u8,
}

pub(super) struct Table<K> {
    slots: Vec<Slot<K>>,
    bits: u32,
    search: u16,
}

impl<K: Key> Table<K> {
    /// A table of 2^`bits` slots, allocated now.
    pub(super) fn new(bits: u32) -> Table<K> {
        let mut t = Table::unallocated(bits);
        t.allocate();
        t
    }

    /// A table of 2^`bits` slots to be allocated by [`Table::allocate`]; until then it holds
    /// nothing.
    pub(super) fn unallocated(bits: u32) -> Table<K> {
        Table {
            slots: Vec::new(),
            bits,
            search: 0,
        }
    }

    pub(super) fn allocate(&mut self) {
        if self.slots.is_empty() {
            self.slots = vec![Slot::default(); 1 << self.bits];
        }
    }

    /// Starts a search: entries of earlier searches no longer count.
    pub(super) fn begin(&mut self) {
        self.search = self.search.wrapping_add(1);
        if self.search == 0 {
            self.slots.fill(Slot::default());
            self.search = 1;
        }
    }

    #[inline]
    fn index(&self, key: K) -> usize {
        (key.spread() >> (64 - self.bits)) as usize
    }

    /// The value stored for `key` in this search at `depth` or deeper.
    #[inline]
    pub(super) fn get(&self, key: K, depth: u8) -> Option<f32> {
        let s = self.slots.get(self.index(key))?;
        (s.search == self.search && s.key == key && s.depth >= depth).then_some(s.value)
    }

    #[inline]
    pub(super) fn put(&mut self, key: K, depth: u8, value: f32) {
        let search = self.search;
        let i = self.index(key);
        let Some(s) = self.slots.get_mut(i) else {
            return;
        };
        // Keep a deeper entry of this search for another board; replace everything else.
        if s.search != search || s.key == key || s.depth <= depth {
            *s = Slot {
                key,
                value,
                search,
                depth,
            };
        }
    }
}
