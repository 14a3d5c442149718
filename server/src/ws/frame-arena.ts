/**
 * Copies of the data frames the relay queues towards one party, packed into slabs of its own.
 *
 * `ws` hands a small message over as a view into the 64 KiB chunk the socket read it from, so a
 * frame kept for long (queued for a slow reader, kept in the resume outbox) would keep the whole
 * chunk alive: one kept 2-byte frame could hold 64 KiB. The relay therefore copies every frame it
 * routes. Copying each into an allocation of its own (`allocUnsafeSlow`) costs a `malloc` per frame
 * and, under millions of tiny frames, fragments the C heap so that its memory is not given back;
 * copying into Node's shared 8 KiB pool lets one kept copy pin a slab that other, short-lived
 * allocations filled. An arena per destination avoids both: a destination's frames are released
 * in the order they were routed (its send queue and its outbox are both first-in first-out), so
 * its slabs are released in order too, and the memory its frames hold is their payload plus at
 * most two partly used slabs.
 */

/** Size of one slab. */
export const SLAB_BYTES = 16 * 1024;
/** Frames larger than this get an allocation of their own (they would waste a slab's tail). */
const LARGEST_PACKED = SLAB_BYTES / 4;

/** One destination's slabs. */
export class FrameArena {
  private slab: Buffer | undefined;
  private used = 0;

  /** A copy of `data` that holds no memory beyond this arena's slabs (or its own allocation). */
  copy(data: Buffer): Buffer {
    const length = data.byteLength;
    if (length > LARGEST_PACKED) {
      // Large messages that `ws` reassembled already own an exact buffer of their own.
      if (data.byteOffset === 0 && length === data.buffer.byteLength) return data;
      const own = Buffer.allocUnsafeSlow(length);
      data.copy(own);
      return own;
    }
    if (this.slab === undefined || this.used + length > SLAB_BYTES) {
      this.slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
      this.used = 0;
    }
    const copy = this.slab.subarray(this.used, this.used + length);
    data.copy(copy);
    // Keep copies 8-byte aligned, like Node's own pool.
    this.used += (length + 7) & ~7;
    return copy;
  }
}
