package io.hdfl.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.SecureRandom;
import javax.crypto.Cipher;
import javax.crypto.spec.ChaCha20ParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class CsprngBitsTest {
  /** A SHA1PRNG seeded before first use is deterministic: the test can redraw the same key and nonce. */
  private static SecureRandom known(long seed) throws Exception {
    SecureRandom r = SecureRandom.getInstance("SHA1PRNG");
    r.setSeed(seed);
    return r;
  }

  private static long[] words(CsprngBits bits, int n) {
    long[] w = new long[n];
    for (int i = 0; i < n; i++) {
      w[i] = bits.nextWord();
    }
    return w;
  }

  @Test
  void expandedBitsAreTheChaCha20KeystreamOfAKeyDrawnPerUpdate() throws Exception {
    CsprngBits bits = new CsprngBits(known(7), false, true);
    bits.startUpdate();
    int n = 3 * CsprngBits.BUFFER_BYTES / Long.BYTES + 5; // across buffer refills
    long[] first = words(bits, n);
    bits.discard();
    bits.startUpdate();
    long[] second = words(bits, n);
    bits.discard();

    SecureRandom r = known(7);
    for (long[] got : new long[][] {first, second}) {
      byte[] key = new byte[32];
      byte[] nonce = new byte[12];
      r.nextBytes(key);
      r.nextBytes(nonce);
      Cipher c = Cipher.getInstance("ChaCha20");
      c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "ChaCha20"), new ChaCha20ParameterSpec(nonce, 0));
      ByteBuffer stream = ByteBuffer.wrap(c.update(new byte[n * Long.BYTES])).order(ByteOrder.LITTLE_ENDIAN);
      long[] expected = new long[n];
      for (int i = 0; i < n; i++) {
        expected[i] = stream.getLong();
      }
      assertArrayEquals(expected, got);
    }
    assertFalse(java.util.Arrays.equals(first, second), "every update has a key of its own");
    int ones = 0;
    for (long w : first) {
      ones += Long.bitCount(w);
    }
    assertEquals(32.0 * n, ones, 5 * Math.sqrt(16.0 * n));
  }

  @Test
  void noBitsWithoutAnUpdateKey() throws Exception {
    CsprngBits bits = new CsprngBits(known(1), false, true);
    assertThrows(IllegalStateException.class, bits::nextWord, "before the first update");
    bits.startUpdate();
    bits.nextWord();
    bits.discard();
    IllegalStateException e = assertThrows(IllegalStateException.class, bits::nextWord, "after discard");
    assertTrue(e.getMessage().contains("startUpdate"), e.getMessage());
    assertTrue(bits.describe().startsWith("ChaCha20 keystream, keyed every update from SHA1PRNG"), bits.describe());
  }

  @Test
  void unexpandedBitsComeStraightFromTheGenerator() throws Exception {
    CsprngBits bits = new CsprngBits(known(3), false, false);
    bits.startUpdate();
    long[] got = words(bits, 4);
    byte[] direct = new byte[CsprngBits.BUFFER_BYTES];
    known(3).nextBytes(direct);
    ByteBuffer b = ByteBuffer.wrap(direct).order(ByteOrder.LITTLE_ENDIAN);
    for (long w : got) {
      assertEquals(b.getLong(), w);
    }
  }
}
