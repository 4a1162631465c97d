package io.hdfl.federation;

import io.hdfl.hd.EncodedSet;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * A stored shard whose encodings are still being prepared (a device encodes its data while it
 * connects and announces itself): the first {@link #next} waits for them, then it is the same
 * stream as {@link SampleStream} with the same seed.
 */
final class PreparingSampleStream implements LocalStream {
  private final CompletableFuture<EncodedSet> data;
  private final long seed;
  private SampleStream stream;
  private long skip;

  PreparingSampleStream(CompletableFuture<EncodedSet> data, long seed) {
    this.data = java.util.Objects.requireNonNull(data, "data");
    this.seed = seed;
  }

  @Override
  public synchronized EncodedSet next(long count) throws InterruptedException {
    if (stream == null) {
      try {
        SampleStream ready = new SampleStream(data.get(), seed);
        ready.resumeAfter(skip); // kept only once positioned: a failed resume never restarts from the first sample
        stream = ready;
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        throw new UncheckedIOException("local data could not be prepared: " + cause.getMessage(),
            cause instanceof java.io.IOException io ? io : new java.io.IOException(cause));
      }
    }
    return stream.next(count);
  }

  @Override
  public synchronized void resumeAfter(long taken) {
    if (stream != null) {
      stream.resumeAfter(taken);
    } else {
      skip = taken;
    }
  }
}
