//! Memory of a table that grows: pages mapped for it alone, so that a larger table keeps
//! the pages it already has.
//!
//! A table that grows by reallocating touches new memory for all of itself each time,
//! about three times its final size in all for a growth of 1.5x, and the kernel clears
//! every new page on its first touch: a large share of a big search where a first touch
//! is dear, as on a virtual machine whose host takes freed memory back
//! (science/notes/benchmarks-history.md, "The memo grows in place"). Here growing remaps the pages
//! (`mremap`, which moves page tables, never bytes) and only the added part is new. On
//! other systems it is a `Vec`.

use std::ops::{Deref, DerefMut};

/// A value whose all-zero bytes are a valid value: anonymous pages come zeroed.
///
/// # Safety
/// Implement it only for `Copy` types, with no padding, for which the all-zero bit
/// pattern is a valid value.
pub(crate) unsafe trait Zeroed: Copy {}

#[cfg(target_os = "linux")]
pub(crate) use linux::Pages;

#[cfg(not(target_os = "linux"))]
pub(crate) use portable::Pages;

#[cfg(target_os = "linux")]
mod linux {
    use super::{Deref, DerefMut, Zeroed};
    use std::alloc::{Layout, handle_alloc_error};
    use std::marker::PhantomData;
    use std::ptr::NonNull;

    /// A huge page on x86-64 and aarch64 with 4 KiB pages.
    const HUGE: usize = 2 << 20;

    /// `len` values of `T` in a mapping of their own, which starts on a huge page's
    /// boundary and always moves to another: a huge page moved to an address of another
    /// offset would be split into small ones.
    pub(crate) struct Pages<T: Zeroed> {
        ptr: NonNull<T>,
        len: usize,
        /// The mapping's bytes: `len` values rounded up to whole huge pages.
        mapped: usize,
        _owns: PhantomData<T>,
    }

    // SAFETY: `Pages` owns its mapping as a `Vec` owns its buffer.
    unsafe impl<T: Zeroed + Send> Send for Pages<T> {}
    // SAFETY: shared access only reads, as for a `Vec`.
    unsafe impl<T: Zeroed + Sync> Sync for Pages<T> {}

    fn failed<T>(len: usize) -> ! {
        let layout = Layout::array::<T>(len).unwrap_or(Layout::new::<T>());
        handle_alloc_error(layout)
    }

    /// The bytes of a mapping for `len` values: whole huge pages.
    fn mapped<T>(len: usize) -> usize {
        len.max(1)
            .checked_mul(std::mem::size_of::<T>().max(1))
            .and_then(|b| b.checked_next_multiple_of(HUGE))
            .unwrap_or_else(|| failed::<T>(len))
    }

    /// A new zeroed mapping of `size` bytes (whole huge pages) on a huge page's
    /// boundary, with huge pages asked for; `None` if the kernel has no room.
    fn map_aligned(size: usize) -> Option<NonNull<libc::c_void>> {
        let span = size.checked_add(HUGE)?;
        // SAFETY: a new private anonymous mapping; no existing memory is touched.
        let raw = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                span,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if raw == libc::MAP_FAILED {
            return None;
        }
        let start = (raw as usize).next_multiple_of(HUGE);
        let head = start - raw as usize;
        // SAFETY: both ranges lie in the mapping just made, outside [start, start + size).
        unsafe {
            if head > 0 {
                libc::munmap(raw, head);
            }
            if span - head - size > 0 {
                libc::munmap((start + size) as *mut libc::c_void, span - head - size);
            }
        }
        advise_huge(start as *mut libc::c_void, size);
        NonNull::new(start as *mut libc::c_void)
    }

    /// Asks for huge pages over the whole mapping, which stays one mapping with one set
    /// of flags, as `mremap` needs; not below two huge pages, so that the small table
    /// of an easy game is not a whole huge page to clear.
    fn advise_huge(ptr: *mut libc::c_void, size: usize) {
        if size < 2 * HUGE {
            return;
        }
        // SAFETY: advice on a mapping of this module's own; it neither reads nor writes
        // it, and an error leaves it as it was.
        unsafe {
            libc::madvise(ptr, size, libc::MADV_HUGEPAGE);
        }
    }

    impl<T: Zeroed> Pages<T> {
        /// `len` zeroed values.
        pub(crate) fn zeroed(len: usize) -> Self {
            const { assert!(std::mem::align_of::<T>() <= HUGE) };
            let mapped = mapped::<T>(len);
            let ptr = map_aligned(mapped).unwrap_or_else(|| failed::<T>(len));
            Pages {
                ptr: ptr.cast(),
                len,
                mapped,
                _owns: PhantomData,
            }
        }

        /// Grows to `len` values: the first ones keep their values, the added ones are
        /// zero. The mapping is extended where it lies if the addresses after it are
        /// free, else its pages move, without being copied, to a new aligned place.
        pub(crate) fn grow(&mut self, len: usize) {
            assert!(len >= self.len, "pages only grow");
            let new = mapped::<T>(len);
            let old = self.ptr.as_ptr().cast::<libc::c_void>();
            if new > self.mapped {
                // SAFETY: `old` and `self.mapped` are this value's mapping; without
                // MREMAP_MAYMOVE it is extended in place or left as it was.
                let mut ptr = unsafe { libc::mremap(old, self.mapped, new, 0) };
                if ptr == libc::MAP_FAILED {
                    let dest = map_aligned(new).unwrap_or_else(|| failed::<T>(len));
                    // SAFETY: moves this value's mapping onto `dest`, a mapping of
                    // `new` bytes made for it, which MREMAP_FIXED replaces.
                    ptr = unsafe {
                        libc::mremap(
                            old,
                            self.mapped,
                            new,
                            libc::MREMAP_MAYMOVE | libc::MREMAP_FIXED,
                            dest.as_ptr(),
                        )
                    };
                    if ptr == libc::MAP_FAILED {
                        failed::<T>(len);
                    }
                }
                advise_huge(ptr, new);
                self.ptr = NonNull::new(ptr.cast()).unwrap_or_else(|| failed::<T>(len));
                self.mapped = new;
            }
            self.len = len;
        }
    }

    impl<T: Zeroed> Drop for Pages<T> {
        fn drop(&mut self) {
            // SAFETY: the mapping is this value's and nothing borrows it any more.
            unsafe {
                libc::munmap(self.ptr.as_ptr().cast(), self.mapped);
            }
        }
    }

    impl<T: Zeroed> Deref for Pages<T> {
        type Target = [T];
        fn deref(&self) -> &[T] {
            // SAFETY: `len` values within the mapping, zeroed or written since, all
            // valid (`Zeroed`).
            unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
        }
    }

    impl<T: Zeroed> DerefMut for Pages<T> {
        fn deref_mut(&mut self) -> &mut [T] {
            // SAFETY: as for `deref`, and `&mut self` makes the access unique.
            unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod portable {
    use super::{Deref, DerefMut, Zeroed};

    pub(crate) struct Pages<T: Zeroed>(Vec<T>);

    impl<T: Zeroed + Default> Pages<T> {
        pub(crate) fn zeroed(len: usize) -> Self {
            Pages(vec![T::default(); len])
        }

        pub(crate) fn grow(&mut self, len: usize) {
            self.0.resize(len, T::default());
        }
    }

    impl<T: Zeroed> Deref for Pages<T> {
        type Target = [T];
        fn deref(&self) -> &[T] {
            &self.0
        }
    }

    impl<T: Zeroed> DerefMut for Pages<T> {
        fn deref_mut(&mut self) -> &mut [T] {
            &mut self.0
        }
    }
}
