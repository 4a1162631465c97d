package io.hdfl.privacy.noise;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.ChaCha20ParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Random bits from a {@link SecureRandom}, fetched {@value #BUFFER_BYTES} bytes at a time, either
 * straight from it or, with {@code expand}, as the ChaCha20 keystream (RFC 8439, the JDK's cipher) of
 * a fresh 256-bit key and 96-bit nonce that {@link #startUpdate()} draws from it for each model update:
 * the construction of OpenBSD's arc4random and Linux's getrandom, secure as long as ChaCha20 is a
 * pseudorandom function. It matters here because a model update takes about 3 MB of bits: the JDK's
 * Hash_DRBG makes them at 180–300 MB/s and allocates about four bytes of garbage per byte it returns
 * (15 MB per update, a federation round's largest allocation), the keystream is written into this
 * buffer without allocating. {@link #discard()} zeroes what is buffered and re-keys the cipher with
 * zeros, so neither bits left over from one model update nor its key are kept in memory for the next.
 * Not thread-safe.
 */
final class CsprngBits extends RandomBits {
  static final int BUFFER_BYTES = 8192;
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final byte[] ZEROS = new byte[BUFFER_BYTES];

  private final SecureRandom rng;
  private final boolean reseedPerUpdate;
  private final Cipher chacha;
  private final byte[] key = new byte[32];
  private final byte[] nonce = new byte[12];
  private final byte[] buffer = new byte[BUFFER_BYTES];
  private int position = BUFFER_BYTES;
  private long wipes;
  /** Whether the cipher holds an update's key (between startUpdate and discard). */
  private boolean keyed;

  /**
   * Bits from {@code rng}; with {@code reseedPerUpdate}, {@link #startUpdate()} reseeds it from its
   * entropy source (only for generators that support {@link SecureRandom#reseed()}, like the DRBG);
   * with {@code expand}, the bits are the ChaCha20 keystream of a key drawn from it for each update.
   */
  CsprngBits(SecureRandom rng, boolean reseedPerUpdate, boolean expand) {
    this.rng = rng;
    this.reseedPerUpdate = reseedPerUpdate;
    try {
      this.chacha = expand ? Cipher.getInstance("ChaCha20") : null;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no ChaCha20 cipher: " + e, e);
    }
  }

  /** Called before the draws of one model update. */
  void startUpdate() {
    if (reseedPerUpdate) {
      rng.reseed();
    }
    if (chacha != null) {
      rng.nextBytes(key);
      rng.nextBytes(nonce);
      try {
        rekey(key, nonce, "a fresh key");
      } finally {
        Arrays.fill(key, (byte) 0);
      }
      keyed = true;
      position = BUFFER_BYTES;
    }
  }

  @Override
  protected long nextWord() {
    if (position == BUFFER_BYTES) {
      refill();
      position = 0;
    }
    long w = (long) LONGS.get(buffer, position);
    LONGS.set(buffer, position, 0L);
    position += Long.BYTES;
    return w;
  }

  private void refill() {
    if (chacha == null) {
      rng.nextBytes(buffer);
      return;
    }
    if (!keyed) {
      throw new IllegalStateException("no key for this update: startUpdate() must come first");
    }
    try {
      // the keystream itself: ChaCha20 of zeros (2^32 blocks of 64 bytes per key; an update takes ~3 MB)
      chacha.update(ZEROS, 0, BUFFER_BYTES, buffer, 0);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("ChaCha20 keystream failed: " + e, e);
    }
  }

  @Override
  void discard() {
    super.discard();
    Arrays.fill(buffer, (byte) 0);
    position = BUFFER_BYTES;
    if (chacha != null) {
      keyed = false;
      // forget the update's key too (the cipher keeps it): re-key with zeros and a nonce never used
      // twice in a row, so that memory read after an update cannot regenerate its noise
      wipes++;
      byte[] n = new byte[12];
      for (int i = 0; i < Long.BYTES; i++) {
        n[i] = (byte) (wipes >>> (8 * i));
      }
      rekey(new byte[32], n, "the all-zero wipe key");
    }
  }

  /** Starts the keystream of {@code key} and {@code nonce} at block 0. */
  private void rekey(byte[] key, byte[] nonce, String what) {
    try {
      chacha.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "ChaCha20"), new ChaCha20ParameterSpec(nonce, 0));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("ChaCha20 refused " + what + ": " + e, e);
    }
  }

  @Override
  String describe() {
    return (chacha != null ? "ChaCha20 keystream, keyed every update from " : "")
        + rng.getAlgorithm() + " (" + rng + ", provider " + rng.getProvider().getName() + ")"
        + (reseedPerUpdate ? ", reseeded every update" : "");
  }
}
