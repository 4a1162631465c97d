package io.hdfl.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ExpCoinTest {
  private static final MathContext MC = new MathContext(160);
  /** exp(−1) to 110 digits (OEIS A068985). */
  private static final BigDecimal EXP_MINUS_ONE = new BigDecimal(
      "0.36787944117144232159552377016146086744581113103176783450783680169746149574489980335714727434591964374662732527");

  /** exp(−num/den) to about 150 digits: Taylor series on r/2^s ≤ 1/2, then squared s times. */
  static BigDecimal exp(BigInteger num, BigInteger den) {
    BigDecimal x = new BigDecimal(num).divide(new BigDecimal(den), MC).negate();
    int s = 0;
    while (x.abs().compareTo(new BigDecimal("0.5")) > 0) {
      x = x.divide(BigDecimal.valueOf(2), MC);
      s++;
    }
    BigDecimal sum = BigDecimal.ONE;
    BigDecimal term = BigDecimal.ONE;
    for (int j = 1; j < 400; j++) {
      term = term.multiply(x, MC).divide(BigDecimal.valueOf(j), MC);
      sum = sum.add(term, MC);
      if (term.abs().compareTo(new BigDecimal("1e-170")) < 0) {
        break;
      }
    }
    for (int i = 0; i < s; i++) {
      sum = sum.multiply(sum, MC);
    }
    return sum;
  }

  private static BigDecimal scaled(BigInteger v, int q) {
    return new BigDecimal(v).divide(new BigDecimal(BigInteger.ONE.shiftLeft(q)), MC);
  }

  @Test
  void referenceExpMatchesKnownDigits() {
    assertEquals(0, exp(BigInteger.ONE, BigInteger.ONE).round(new MathContext(100)).compareTo(EXP_MINUS_ONE.round(new MathContext(100))));
  }

  @Test
  void integerBoundsBracketExpAndNarrowWithPrecision() {
    long[][] rs = {{0, 1}, {1, 1}, {1, 3}, {2, 3}, {999_999, 1_000_000}, {5, 1}, {53, 10}, {7001, 10}, {1_000_000, 3},
        {(1L << 61) + 12345, 1L << 61}, {123_456_789_012L, 1_000_003}};
    for (long[] r : rs) {
      BigInteger num = BigInteger.valueOf(r[0]);
      BigInteger den = BigInteger.valueOf(r[1]);
      BigInteger[] kf = num.divideAndRemainder(den);
      BigDecimal ref = exp(num, den);
      for (int q : new int[] {64, 117, 181, 300}) {
        BigInteger[] b = ExpCoin.expMinusBounds(kf[0], kf[1], den, q);
        BigDecimal lo = scaled(b[0], q);
        BigDecimal hi = scaled(b[1], q);
        String at = "exp(-" + r[0] + "/" + r[1] + ") at q=" + q;
        assertTrue(lo.compareTo(ref) <= 0, at + ": lower bound " + lo + " above " + ref);
        assertTrue(hi.compareTo(ref) >= 0, at + ": upper bound " + hi + " below " + ref);
        // width: a few units in the last place per multiplication (k up to ~2^17 here)
        assertTrue(b[1].subtract(b[0]).compareTo(BigInteger.valueOf(1000)) <= 0, at + ": width " + b[1].subtract(b[0]));
      }
    }
  }

  @Test
  void doubleBracketHoldsWithRoomToSpare() {
    // lo, hi as flip computes them, against the exact value: the relative error must stay far below MARGIN
    SplittableRandom rnd = new SplittableRandom(5);
    for (int i = 0; i < 3000; i++) {
      long den = 1 + rnd.nextLong(1L << (1 + rnd.nextInt(52)));
      long num = (long) (rnd.nextDouble() * 700 * den); // r up to 700, numerators up to 2^62
      double x = (double) num / den;
      if (x > ExpCoin.MAX_FAST_EXPONENT) {
        continue;
      }
      double e = Math.exp(-x);
      BigDecimal ref = exp(BigInteger.valueOf(num), BigInteger.valueOf(den));
      BigDecimal rel = new BigDecimal(e).subtract(ref).abs().divide(ref, MC);
      assertTrue(rel.compareTo(new BigDecimal(0x1p-40)) < 0, "exp(-" + num + "/" + den + "): relative error " + rel);
      assertTrue(new BigDecimal(e * (1 - ExpCoin.MARGIN)).compareTo(ref) <= 0);
      assertTrue(new BigDecimal(e * (1 + ExpCoin.MARGIN)).compareTo(ref) >= 0);
    }
  }

  /** Bits from known words, so the test can rebuild the digits of U the exact comparison drew. */
  private static final class KnownBits extends RandomBits {
    private final SplittableRandom rng;

    KnownBits(long seed) {
      rng = new SplittableRandom(seed);
    }

    @Override
    protected long nextWord() {
      return rng.nextLong();
    }

    @Override
    String describe() {
      return "known";
    }
  }

  @Test
  void exactComparisonAgreesWithTheReferenceRightAtTheBoundary() {
    // U's first 53 digits equal to those of exp(−r) itself: only further digits can decide
    SplittableRandom rnd = new SplittableRandom(9);
    int trues = 0;
    for (int i = 0; i < 400; i++) {
      long den = 1 + rnd.nextLong(1L << 40);
      long num = rnd.nextLong(20 * den);
      BigDecimal ref = exp(BigInteger.valueOf(num), BigInteger.valueOf(den));
      BigInteger prefix = ref.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(53))).setScale(0, RoundingMode.FLOOR).toBigIntegerExact();
      long seed = rnd.nextLong();
      boolean answer = ExpCoin.decideExactly(new KnownBits(seed), prefix, 53, BigInteger.valueOf(num), BigInteger.valueOf(den));
      // rebuild U from the same words: each step appends the low 32 bits of a word, then its high 32
      SplittableRandom words = new SplittableRandom(seed);
      BigInteger u = prefix;
      int digits = 53;
      for (int step = 0; step < 8; step++) {
        long w = words.nextLong();
        u = u.shiftLeft(32).or(BigInteger.valueOf(w & 0xFFFFFFFFL)).shiftLeft(32).or(BigInteger.valueOf(w >>> 32));
        digits += 64;
      }
      BigDecimal uLow = scaled(u, digits);
      assertEquals(uLow.compareTo(ref) < 0, answer, "U vs exp(-" + num + "/" + den + ")");
      trues += answer ? 1 : 0;
    }
    assertTrue(trues > 120 && trues < 280, "about half of the boundary cases go each way: " + trues);
  }

  @Test
  void tailAndEdgeCases() {
    KnownBits bits = new KnownBits(3);
    for (int i = 0; i < 1000; i++) {
      assertTrue(ExpCoin.flip(bits, 0, 7), "exp(0) = 1 > U");
      assertFalse(ExpCoin.flip(bits, 701, 1), "exp(-701) < 2^-1000");
      assertFalse(ExpCoin.flip(bits, BigInteger.ONE.shiftLeft(200), 3));
    }
    // a U of 53 zero digits reaches the exact comparison for a tail exponent and for a tiny one
    assertFalse(ExpCoin.decideExactly(new KnownBits(1), BigInteger.ZERO, 53, BigInteger.valueOf(100_000), BigInteger.ONE));
    assertTrue(ExpCoin.decideExactly(new KnownBits(1), BigInteger.ZERO, 53, BigInteger.ONE, BigInteger.valueOf(1000)));
  }

  @Test
  void coinFrequencies() {
    KnownBits bits = new KnownBits(21);
    int n = 400_000;
    long[][] gammas = {{1, 4}, {1, 1}, {3, 2}, {11, 4}, {5, 1}, {699, 100}};
    for (long[] g : gammas) {
      int hits = 0;
      for (int i = 0; i < n; i++) {
        hits += ExpCoin.flip(bits, g[0], g[1]) ? 1 : 0;
      }
      double p = Math.exp(-(double) g[0] / g[1]);
      assertTrue(Math.abs(hits - n * p) <= 5 * Math.sqrt(n * p * (1 - p)), g[0] + "/" + g[1] + ": " + hits + " vs " + n * p);
    }
    int hits = 0;
    for (int i = 0; i < n; i++) {
      hits += ExpCoin.flipExpMinusOne(bits) ? 1 : 0;
    }
    double p = Math.exp(-1);
    assertTrue(Math.abs(hits - n * p) <= 5 * Math.sqrt(n * p * (1 - p)), "exp(-1): " + hits);
  }
  @Test
  void tableBoundsBracketPowersOfTwoAndStayNarrow() {
    SplittableRandom rnd = new SplittableRandom(31);
    for (int i = 0; i < 200_000; i++) {
      double z = i < 2000 ? i / 256.0 + (i % 3 - 1) * 0x1p-40 : rnd.nextDouble() * ExpCoin.MAX_TABLE_EXPONENT;
      z = Math.max(0, Math.min(z, ExpCoin.MAX_TABLE_EXPONENT));
      double p = Math.pow(2, -z); // within 1 ulp of 2^−z
      double lo = ExpCoin.pow2Lower(z);
      double hi = ExpCoin.pow2Upper(z);
      assertTrue(lo <= p * (1 - 0x1p-51), "lower bound at z=" + z + ": " + lo + " vs " + p);
      assertTrue(hi >= p * (1 + 0x1p-51), "upper bound at z=" + z + ": " + hi + " vs " + p);
      // one table step wide (plus the slack), so the first 8 digits of U decide all but ~1 coin in 150
      assertTrue(hi / lo <= Math.pow(2, 1.0 / 256) * (1 + 0x1p-45), "width at z=" + z + ": " + hi / lo);
      assertTrue(Double.isFinite(lo) && lo >= Double.MIN_NORMAL, "normal at z=" + z);
    }
  }

  /** The coin as it was before the table: Math.exp bounds only, on the same 8 digits. */
  private static boolean referenceFlip(RandomBits bits, long num, long den) {
    if (num == 0) {
      return true;
    }
    double x = (double) num / den;
    if (x > ExpCoin.MAX_FAST_EXPONENT) {
      return ExpCoin.flip(bits, num, den);
    }
    double e = Math.exp(-x);
    return ExpCoin.compareFrom(bits, bits.nextBits(8), e * (1 - ExpCoin.MARGIN), e * (1 + ExpCoin.MARGIN), num, null, den);
  }

  @Test
  void tableMakesTheSameDecisionsOnTheSameDigitsAsMathExpAlone() {
    // the table (and the precomputed log2(e)/den of the scaled coin) only skips Math.exp: every coin
    // must come out the same from the same bits, and draw exactly as many of them (the next word of
    // the streams must agree). Cases: exp(−r) within 2^-40 of a multiple of 2^-8 (where the 8-digit
    // decision is closest), the sampler's Laplace coin u/t, its acceptance coin (denominator 2·t·q·d
    // near 2^61, numerators up to 2^63), and anything up to the tail. A bracket wrong by far less
    // than a table step (a missing shrink, a slack short by 2^-40) would not show here; the error
    // analysis in ExpCoin covers those.
    SplittableRandom rnd = new SplittableRandom(77);
    for (int trial = 0; trial < 300; trial++) {
      long seed = rnd.nextLong();
      KnownBits a = new KnownBits(seed);
      KnownBits b = new KnownBits(seed);
      KnownBits c = new KnownBits(seed);
      int trues = 0;
      for (int i = 0; i < 5000; i++) {
        long den;
        long num;
        switch (i % 4) {
          case 0: { // near a multiple of 2^-8: exp(−r) ≈ k/256
            den = 1L << 40;
            num = Math.round(-Math.log((1 + rnd.nextInt(256)) / 256.0) * den) + rnd.nextInt(5) - 2;
            break;
          }
          case 1: { // the sampler's Laplace coin: u/t
            den = 1_048_577 + rnd.nextInt(1 << 20);
            num = rnd.nextLong(den);
            break;
          }
          case 2: { // the sampler's acceptance coin: (|Y|·d − q)² / (2·t·q·d), den near 2^61
            den = (1L << 61) + rnd.nextLong(1L << 60);
            num = rnd.nextBoolean() ? rnd.nextLong(Long.MAX_VALUE) : rnd.nextLong(den); // r up to 4, or below 1
            break;
          }
          default: { // anything up to the tail
            den = 1 + rnd.nextLong(1L << (1 + rnd.nextInt(52)));
            num = (long) (rnd.nextDouble() * 720 * den);
          }
        }
        num = Math.max(0, num);
        boolean expected = referenceFlip(a, num, den);
        assertEquals(expected, ExpCoin.flip(b, num, den), "coin exp(-" + num + "/" + den + ")");
        assertEquals(expected, ExpCoin.flip(c, num, den, ExpCoin.log2eOver(den)), "scaled coin exp(-" + num + "/" + den + ")");
        trues += expected ? 1 : 0;
      }
      long next = a.nextBits(63);
      assertEquals(next, b.nextBits(63), "both streams drew the same digits (trial " + trial + ")");
      assertEquals(next, c.nextBits(63), "the scaled coin drew the same digits (trial " + trial + ")");
      assertTrue(trues > 0 && trues < 5000, "both outcomes occur: " + trues);
    }
  }

  @Test
  void tableEntriesBracketTheExactPowersOfTwo() {
    // 2^(−i/256) to 60 digits: the 256th root of 2^−i by eight square roots
    MathContext mc = new MathContext(60);
    for (int n : new int[] {0, 1, 7, 300, 1009}) {
      for (int i = 0; i <= 256; i++) {
        BigDecimal exact = BigDecimal.ONE.divide(new BigDecimal(BigInteger.ONE.shiftLeft(i)), mc);
        for (int k = 0; k < 8; k++) {
          exact = exact.sqrt(mc);
        }
        exact = exact.divide(new BigDecimal(BigInteger.ONE.shiftLeft(n)), mc);
        String at = "2^-(" + n + " + " + i + "/256)";
        if (i >= 1) { // pow2Lower one step below the grid point returns that grid point's lower entry
          double lo = ExpCoin.pow2Lower(n + (i - 1) / 256.0);
          assertTrue(new BigDecimal(lo).compareTo(exact) < 0, at + ": lower entry " + lo + " not below " + exact);
          assertTrue(new BigDecimal(lo).compareTo(exact.multiply(new BigDecimal(1 - 0x1p-48), mc)) > 0, at + ": lower entry too loose");
        }
        if (i <= 255) {
          double hi = ExpCoin.pow2Upper(n + i / 256.0);
          assertTrue(new BigDecimal(hi).compareTo(exact) > 0, at + ": upper entry " + hi + " not above " + exact);
          assertTrue(new BigDecimal(hi).compareTo(exact.multiply(new BigDecimal(1 + 0x1p-48), mc)) < 0, at + ": upper entry too loose");
        }
      }
    }
  }
}
