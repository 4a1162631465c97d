package io.hdfl.federation;

import io.hdfl.hd.EncodedSet;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A client's local data as a stream for continuous learning: each round takes the next L samples,
 * balanced across classes where the data allow (classes are visited round-robin in a seeded order,
 * each class's samples in a seeded shuffled order). Each stored sample is given once: the star's
 * privacy accounting (README, "Honest composition report") counts a record in the one round that
 * learns it, so a shard used up is an error ({@link #next}), not a stream that starts over.
 */
final class SampleStream implements LocalStream {
  private final EncodedSet data;
  private final int[] order;
  private int cursor;

  SampleStream(EncodedSet data, long seed) {
    this.data = data;
    SplittableRandom rng = new SplittableRandom(seed);
    List<List<Integer>> byClass = new ArrayList<>();
    for (int c = 0; c < data.classes(); c++) {
      byClass.add(new ArrayList<>());
    }
    for (int i = 0; i < data.size(); i++) {
      byClass.get(data.label(i)).add(i);
    }
    for (List<Integer> l : byClass) {
      for (int i = l.size() - 1; i > 0; i--) {
        int j = rng.nextInt(i + 1);
        Integer t = l.get(i);
        l.set(i, l.get(j));
        l.set(j, t);
      }
    }
    order = new int[data.size()];
    int n = 0;
    for (int depth = 0; n < order.length; depth++) {
      for (List<Integer> l : byClass) {
        if (depth < l.size()) {
          order[n++] = l.get(depth);
        }
      }
    }
  }

  /** Continues after the first {@code taken} samples of the order. */
  @Override
  public void resumeAfter(long taken) {
    if (taken < 0 || taken > order.length) {
      throw new IllegalArgumentException("samples taken must be within the shard's " + order.length + ", got " + taken);
    }
    cursor = (int) taken;
  }

  /** Samples given so far. */
  long taken() {
    return cursor;
  }

  /**
   * The next {@code count} samples.
   *
   * @throws IllegalStateException if fewer than {@code count} samples are left
   */
  @Override
  public EncodedSet next(long count) {
    if (count > Integer.MAX_VALUE / Math.max(1, data.dim())) {
      throw new IllegalArgumentException("too many samples per round: " + count);
    }
    if (count > order.length - cursor) {
      throw new IllegalStateException("the stored shard is used up: " + order.length + " samples, " + cursor
          + " learned, " + count + " more asked for (a star learns each stored sample in one round only)");
    }
    int[] idx = java.util.Arrays.copyOfRange(order, cursor, cursor + (int) count);
    cursor += (int) count;
    return data.subset(idx);
  }

  /**
   * Why a shard of {@code size} samples cannot feed {@code rounds} rounds of {@code perRound} new
   * samples, or null if it can.
   */
  static String shortfall(String client, long size, int rounds, long perRound) {
    if (size >= (long) rounds * perRound) {
      return null;
    }
    return client + " holds " + size + " samples, fewer than the " + rounds + " x " + perRound + " new samples of "
        + rounds + " rounds (a star client learns each stored sample in one round only, as its privacy accounting "
        + "assumes): lower per-round or rounds, or give each client more data";
  }
}
