package io.hdfl.privacy.noise;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * Random bits from a {@link SecureRandom}, fetched {@value #BUFFER_BYTES} bytes at a time (one
 * {@code nextBytes} call per buffer instead of one per {@code nextLong}, which is what makes a
 * DRBG fast enough). {@link #discard()} zeroes what is buffered, so bits left over from one model
 * update are never kept in memory for the next. Not thread-safe.
 */
final class CsprngBits extends RandomBits {
  static final int BUFFER_BYTES = 8192;
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final SecureRandom rng;
  private final boolean reseedPerUpdate;
  private final byte[] buffer = new byte[BUFFER_BYTES];
  private int position = BUFFER_BYTES;

  /**
   * Bits from {@code rng}; with {@code reseedPerUpdate}, {@link #startUpdate()} reseeds it from its
   * entropy source (only for generators that support {@link SecureRandom#reseed()}, like the DRBG).
   */
  CsprngBits(SecureRandom rng, boolean reseedPerUpdate) {
    this.rng = rng;
    this.reseedPerUpdate = reseedPerUpdate;
  }

  /** Called before the draws of one model update. */
  void startUpdate() {
    if (reseedPerUpdate) {
      rng.reseed();
    }
  }

  @Override
  protected long nextWord() {
    if (position == BUFFER_BYTES) {
      rng.nextBytes(buffer);
      position = 0;
    }
    long w = (long) LONGS.get(buffer, position);
    LONGS.set(buffer, position, 0L);
    position += Long.BYTES;
    return w;
  }

  @Override
  void discard() {
    super.discard();
    Arrays.fill(buffer, (byte) 0);
    position = BUFFER_BYTES;
  }

  @Override
  String describe() {
    return rng.getAlgorithm() + " (" + rng + ", provider " + rng.getProvider().getName() + ")"
        + (reseedPerUpdate ? ", reseeded every update" : "");
  }
}
