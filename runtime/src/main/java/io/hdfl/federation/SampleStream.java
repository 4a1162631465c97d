package io.hdfl.federation;

import io.hdfl.hd.EncodedSet;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A client's local data as a stream for continuous learning: each round takes the next L samples,
 * balanced across classes where the data allow (classes are visited round-robin in a seeded order,
 * each class's samples in a seeded shuffled order). When the shard is exhausted the stream starts
 * over; the accountant counts samples with repetition either way.
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

  /** Continues after the first {@code taken} samples of the order (which starts over at its end). */
  @Override
  public void resumeAfter(long taken) {
    if (taken < 0) {
      throw new IllegalArgumentException("samples taken must be >= 0, got " + taken);
    }
    cursor = (int) (taken % order.length);
  }

  /** The next {@code count} samples. */
  @Override
  public EncodedSet next(long count) {
    if (count > Integer.MAX_VALUE / Math.max(1, data.dim())) {
      throw new IllegalArgumentException("too many samples per round: " + count);
    }
    int[] idx = new int[(int) count];
    for (int i = 0; i < idx.length; i++) {
      idx[i] = order[cursor];
      cursor = (cursor + 1) % order.length;
    }
    return data.subset(idx);
  }
}
