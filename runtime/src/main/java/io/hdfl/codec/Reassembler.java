package io.hdfl.codec;

import io.hdfl.codec.ChunkException.Reason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.zip.CRC32C;

/**
 * Puts chunked frames back together ({@link ChunkSplitter}). Every packet a peer receives goes
 * through {@link #offer}: an unchunked frame comes straight back, a chunk is buffered until its
 * message is complete. Message ids are scoped per sender; one instance serves many senders of a
 * receiver, so its memory cap bounds what they make the device hold ({@code FrameChannel} holds two:
 * one for frames kept on the broker, one for the rest).
 *
 * <p>Hostile input is bounded before it costs memory: a message's claimed total length is checked
 * against the per-message maximum and reserved against the cap on buffered bytes, and its claimed
 * chunk count against the maximum chunks per message, before anything is allocated for it; the
 * number of incomplete messages is capped too. So that one sender (a topic) cannot take what the
 * others need, each sender has a share of both caps (by default a quarter of the messages, and half
 * of the bytes but at least one largest message): a new message that would take its sender over its
 * share, or a cap, supersedes that sender's oldest incomplete messages (never another sender's), as
 * a resend does the copy that stalled — a sender's newer message is the one it wants through — and
 * only once the newcomer is known to be acceptable and to fit then ({@link Builder#superseding}
 * turns this off, for parts retained on the broker). A message refused by one of these limits is
 * refused once: its other chunks are then discarded silently (counted), since it can never
 * complete without the refused chunk. Chunks may arrive in any order; exact duplicates (MQTT QoS 1
 * redelivery) are ignored, also for one timeout after their message completed. A chunk that
 * contradicts earlier chunks of its message is rejected and the message kept. Incomplete messages
 * are dropped {@code timeout} after their first chunk arrived, and counted. The assembled frame
 * must match the CRC-32C the chunks carry. Message ids must not be reused by a sender within a
 * timeout of the previous use.
 *
 * <p>Thread-safe (methods are synchronized).
 */
public final class Reassembler {
  private static final int REMEMBERED_FINISHED = 1024;

  private final long timeoutNanos;
  private final int maxMessageBytes;
  private final long maxBufferedBytes;
  private final int maxChunksPerMessage;
  private final int maxIncompleteMessages;
  private final int maxIncompletePerSender;
  private final long maxBufferedBytesPerSender;
  private final boolean superseding;
  private final LongSupplier clock;

  /** Incomplete messages in order of their first chunk (so the oldest is first). */
  private final LinkedHashMap<Key, Partial> partials = new LinkedHashMap<>();
  /** Recently completed or dropped messages, oldest first. */
  private final LinkedHashMap<Key, Finished> finished = new LinkedHashMap<>();
  /** What each sender with incomplete messages holds of the caps. */
  private final Map<String, Share> shares = new HashMap<>();
  private long reservedBytes;
  private long bufferedBytes;
  private long completed;
  private long unchunked;
  private long duplicates;
  private long discarded;
  private long expired;
  private long rejected;
  private long superseded;

  private record Key(String sender, long messageId) {}

  /** A sender's incomplete messages and their claimed total lengths. */
  private static final class Share {
    int messages;
    long reservedBytes;
  }

  /** A message no longer buffered: forgotten at {@code forgetAt}; completed, or dropped. */
  private record Finished(long forgetAt, boolean completed) {}

  private static final class Partial {
    final ChunkHeader first;
    final long startedNanos;
    final byte[][] chunks;
    int received;
    long payloadSize = -1; // of every chunk but the last, once one of them arrived
    long lastSize = -1;

    Partial(ChunkHeader first, long startedNanos) {
      this.first = first;
      this.startedNanos = startedNanos;
      this.chunks = new byte[first.count()][];
    }
  }

  private Reassembler(Builder b) {
    timeoutNanos = b.timeout.toNanos();
    maxMessageBytes = b.maxMessageBytes;
    maxBufferedBytes = b.maxBufferedBytes;
    maxChunksPerMessage = b.maxChunksPerMessage;
    maxIncompleteMessages = b.maxIncompleteMessages;
    superseding = b.superseding;
    // without superseding a sender's share defaults to the whole caps (shares would only refuse more)
    maxIncompletePerSender = b.maxIncompletePerSender > 0 ? b.maxIncompletePerSender
        : superseding ? Math.max(1, maxIncompleteMessages / 4) : maxIncompleteMessages;
    maxBufferedBytesPerSender = b.maxBufferedBytesPerSender > 0 ? b.maxBufferedBytesPerSender
        : superseding ? Math.max(maxBufferedBytes / 2, Math.min(maxMessageBytes, maxBufferedBytes)) : maxBufferedBytes;
    clock = b.clock;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Takes one received packet from {@code sender}. Returns the complete frame when {@code packet}
   * is an unchunked frame or completes a message, else empty (a chunk buffered, or a duplicate).
   * Throws {@link ChunkException} for a packet that is rejected.
   */
  public synchronized Optional<byte[]> offer(String sender, byte[] packet) {
    Objects.requireNonNull(sender, "sender");
    Objects.requireNonNull(packet, "packet");
    long now = clock.getAsLong();
    expire(now);
    if (ChunkHeader.hasMagic(packet, EnvelopeCodec.MAGIC) || ChunkHeader.hasMagic(packet, EnvelopeCodec.SEALED_MAGIC)) {
      unchunked++;
      return Optional.of(packet);
    }
    try {
      if (!ChunkHeader.hasMagic(packet, ChunkHeader.MAGIC)) {
        throw new ChunkException(Reason.BAD_MAGIC, "packet of " + packet.length + " bytes is neither a chunk nor a frame");
      }
      return accept(sender, ChunkHeader.parse(packet), packet, now);
    } catch (ChunkException ex) {
      rejected++;
      throw ex;
    }
  }

  private Optional<byte[]> accept(String sender, ChunkHeader h, byte[] packet, long now) {
    Key key = new Key(sender, h.messageId());
    Finished done = finished.get(key);
    if (done != null) {
      if (done.completed()) {
        duplicates++;
      } else {
        discarded++;
      }
      return Optional.empty();
    }
    Partial p = partials.get(key);
    boolean fresh = p == null;
    if (fresh) {
      ChunkException refused = null;
      if (h.totalLength() > maxMessageBytes) {
        refused = new ChunkException(Reason.MESSAGE_TOO_LARGE, h.where() + ": total length " + h.totalLength()
            + " exceeds the limit of " + maxMessageBytes);
      } else if (h.count() > maxChunksPerMessage) {
        refused = new ChunkException(Reason.TOO_MANY_CHUNKS, h.where() + ": more than " + maxChunksPerMessage + " chunks");
      }
      if (refused != null) {
        remember(key, now, false);
        throw refused;
      }
      p = new Partial(h, now);
      checkSize(p, h, packet.length - ChunkHeader.BYTES); // a chunk that cannot be its message's takes nothing
      // the sender's oldest incomplete messages that would have to go to keep it within its share
      List<Key> stale = new ArrayList<>();
      long freed = 0;
      Share share = shares.get(sender);
      if (share != null && superseding) {
        for (Iterator<Key> it = partials.keySet().iterator(); it.hasNext()
            && (share.messages - stale.size() >= maxIncompletePerSender
                || share.reservedBytes - freed + h.totalLength() > maxBufferedBytesPerSender
                || partials.size() - stale.size() >= maxIncompleteMessages
                || reservedBytes - freed + h.totalLength() > maxBufferedBytes); ) {
          Key k = it.next();
          if (k.sender().equals(sender)) {
            stale.add(k);
            freed += partials.get(k).first.totalLength();
          }
        }
      }
      if (!superseding && share != null && share.messages >= maxIncompletePerSender) {
        refused = new ChunkException(Reason.TOO_MANY_MESSAGES, h.where() + ": its sender already holds " + share.messages
            + " incomplete messages, its share");
      } else if (!superseding && share != null && share.reservedBytes + h.totalLength() > maxBufferedBytesPerSender) {
        refused = new ChunkException(Reason.MEMORY_CAP, h.where() + ": " + h.totalLength() + " more bytes would exceed"
            + " its sender's share of " + maxBufferedBytesPerSender + " (" + share.reservedBytes + " held)");
      } else if (partials.size() - stale.size() >= maxIncompleteMessages) {
        refused = new ChunkException(Reason.TOO_MANY_MESSAGES, h.where() + ": already " + partials.size()
            + " incomplete messages");
      } else if (reservedBytes - freed + h.totalLength() > maxBufferedBytes) {
        refused = new ChunkException(Reason.MEMORY_CAP, h.where() + ": " + h.totalLength()
            + " more bytes would exceed the cap of " + maxBufferedBytes + " (" + reservedBytes + " held for incomplete messages)");
      }
      if (refused != null) {
        remember(key, now, false);
        throw refused;
      }
      for (Key k : stale) {
        release(k, partials.remove(k));
        remember(k, now, false);
        superseded++;
      }
    } else if (p.first.count() != h.count() || p.first.totalLength() != h.totalLength()
        || p.first.frameCrc() != h.frameCrc()) {
      throw new ChunkException(Reason.INCONSISTENT, h.where() + ": count, total length or CRC differ from the message's"
          + " earlier chunks (" + p.first.count() + " chunks, " + p.first.totalLength() + " bytes)");
    }
    int len = packet.length - ChunkHeader.BYTES;
    byte[] have = p.chunks[h.index()];
    if (have != null) {
      if (Arrays.equals(have, 0, have.length, packet, ChunkHeader.BYTES, packet.length)) {
        duplicates++;
        return Optional.empty();
      }
      throw new ChunkException(Reason.INCONSISTENT, h.where() + ": differs from the copy already received");
    }
    if (fresh) {
      partials.put(key, p);
      reservedBytes += h.totalLength();
      Share share = shares.computeIfAbsent(sender, x -> new Share());
      share.messages++;
      share.reservedBytes += h.totalLength();
    } else {
      checkSize(p, h, len);
    }
    p.chunks[h.index()] = Arrays.copyOfRange(packet, ChunkHeader.BYTES, packet.length);
    p.received++;
    bufferedBytes += len;
    if (p.received < p.first.count()) {
      return Optional.empty();
    }
    partials.remove(key);
    release(key, p);
    byte[] frame = new byte[(int) p.first.totalLength()];
    int at = 0;
    for (byte[] c : p.chunks) {
      System.arraycopy(c, 0, frame, at, c.length);
      at += c.length;
    }
    CRC32C crc = new CRC32C();
    crc.update(frame, 0, frame.length);
    boolean ok = (int) crc.getValue() == p.first.frameCrc();
    remember(key, now, ok);
    if (!ok) {
      throw new ChunkException(Reason.BAD_CHECKSUM, "message " + Long.toUnsignedString(key.messageId())
          + ": assembled " + frame.length + " bytes do not match the CRC of its chunks; dropped");
    }
    completed++;
    return Optional.of(frame);
  }

  /**
   * Every chunk but the last carries the same payload size P, the last the rest: with count c and
   * total T, (c−1)·P < T ≤ c·P and the last chunk has T − (c−1)·P bytes.
   */
  private static void checkSize(Partial p, ChunkHeader h, long len) {
    long count = h.count();
    long total = h.totalLength();
    boolean last = h.index() == count - 1;
    String bad = null;
    if (count == 1) {
      bad = len == total ? null : "a single chunk must carry all " + total + " bytes";
    } else if (!last) {
      if (p.payloadSize < 0) {
        if ((count - 1) * len >= total || count * len < total) {
          bad = "payload of " + len + " bytes cannot be the chunk size of " + count + " chunks totalling " + total;
        } else if (p.lastSize >= 0 && (count - 1) * len + p.lastSize != total) {
          bad = "payload of " + len + " bytes does not fit the last chunk's " + p.lastSize;
        } else {
          p.payloadSize = len;
        }
      } else if (len != p.payloadSize) {
        bad = "payload of " + len + " bytes, earlier chunks carry " + p.payloadSize;
      }
    } else {
      if (p.payloadSize >= 0 ? len != total - (count - 1) * p.payloadSize : len > total - (count - 1)) {
        bad = "last payload of " + len + " bytes does not fit " + count + " chunks totalling " + total;
      } else {
        p.lastSize = len;
      }
    }
    if (bad != null) {
      throw new ChunkException(Reason.INCONSISTENT, h.where() + ": " + bad);
    }
  }

  /** Accounting for a message that left {@link #partials}. */
  private void release(Key key, Partial p) {
    reservedBytes -= p.first.totalLength();
    Share share = shares.get(key.sender());
    share.reservedBytes -= p.first.totalLength();
    if (--share.messages == 0) {
      shares.remove(key.sender());
    }
    for (byte[] c : p.chunks) {
      if (c != null) {
        bufferedBytes -= c.length;
      }
    }
  }

  /** Remembers a finished message for one timeout, so its late chunks are not taken for a new one. */
  private void remember(Key key, long now, boolean completed) {
    finished.remove(key);
    finished.put(key, new Finished(now + timeoutNanos, completed));
    if (finished.size() > REMEMBERED_FINISHED) {
      Iterator<Key> it = finished.keySet().iterator();
      it.next();
      it.remove();
    }
  }

  /** Drops incomplete messages older than the timeout now; returns how many. */
  public synchronized int expire() {
    return expire(clock.getAsLong());
  }

  private int expire(long now) {
    int dropped = 0;
    Iterator<Map.Entry<Key, Partial>> it = partials.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<Key, Partial> e = it.next();
      if (now - e.getValue().startedNanos < timeoutNanos) {
        break; // insertion order: every later message started later
      }
      it.remove();
      release(e.getKey(), e.getValue());
      remember(e.getKey(), now, false);
      dropped++;
    }
    expired += dropped;
    Iterator<Finished> f = finished.values().iterator();
    while (f.hasNext() && f.next().forgetAt() - now <= 0) {
      f.remove();
    }
    return dropped;
  }

  /** Counters since construction and what is held now. */
  public synchronized Stats stats() {
    return new Stats(completed, unchunked, duplicates, discarded, expired, rejected, superseded, partials.size(),
        reservedBytes, bufferedBytes);
  }

  /**
   * @param completed chunked messages assembled with a matching CRC
   * @param unchunked frames that arrived whole
   * @param duplicates chunks ignored as exact duplicates, or late chunks of a completed message
   * @param discarded chunks ignored because their message was dropped (expired, refused by a limit, bad CRC)
   * @param expired incomplete messages dropped by the timeout
   * @param rejected packets rejected with a {@link ChunkException} (and assembled messages that failed the CRC)
   * @param superseded incomplete messages dropped for a newer one of their sender over its share
   * @param incompleteMessages messages waiting for chunks now
   * @param reservedBytes claimed total lengths of the incomplete messages (what the cap counts)
   * @param bufferedBytes payload bytes actually held now
   */
  public record Stats(long completed, long unchunked, long duplicates, long discarded, long expired, long rejected,
      long superseded, int incompleteMessages, long reservedBytes, long bufferedBytes) {}

  /** Builder; defaults suit models up to 32 MiB. */
  public static final class Builder {
    private Duration timeout = Duration.ofSeconds(60);
    private int maxMessageBytes = Expectations.DEFAULT_MAX_FRAME_BYTES;
    private long maxBufferedBytes = 2L * Expectations.DEFAULT_MAX_FRAME_BYTES;
    private int maxChunksPerMessage = 4096;
    private int maxIncompleteMessages = 64;
    private int maxIncompletePerSender;
    private long maxBufferedBytesPerSender;
    private boolean superseding = true;
    private LongSupplier clock = System::nanoTime;

    private Builder() {}

    /** Incomplete messages are dropped this long after their first chunk arrived (default 60 s). */
    public Builder timeout(Duration v) {
      if (v.isNegative() || v.isZero()) {
        throw new IllegalArgumentException("timeout must be positive, got " + v);
      }
      timeout = v;
      return this;
    }

    /** Largest frame accepted (claimed total length), default 32 MiB as the envelope's frame limit. */
    public Builder maxMessageBytes(int v) {
      maxMessageBytes = positive("maxMessageBytes", v);
      return this;
    }

    /** Cap on the claimed total lengths of all incomplete messages together (default 64 MiB). */
    public Builder maxBufferedBytes(long v) {
      if (v < 1) {
        throw new IllegalArgumentException("maxBufferedBytes must be >= 1, got " + v);
      }
      maxBufferedBytes = v;
      return this;
    }

    /**
     * Largest chunk count of one message (default 4096: 32 MiB in 8 KiB packets). Each incomplete
     * message holds a table of this many references besides its reserved bytes.
     */
    public Builder maxChunksPerMessage(int v) {
      maxChunksPerMessage = positive("maxChunksPerMessage", v);
      return this;
    }

    /** Most incomplete messages held at once (default 64). */
    public Builder maxIncompleteMessages(int v) {
      maxIncompleteMessages = positive("maxIncompleteMessages", v);
      return this;
    }

    /** A sender's share of the incomplete messages (default a quarter of {@link #maxIncompleteMessages}, at least 1). */
    public Builder maxIncompletePerSender(int v) {
      maxIncompletePerSender = positive("maxIncompletePerSender", v);
      return this;
    }

    /**
     * A sender's share of the claimed bytes (default half of {@link #maxBufferedBytes}, but at least one
     * message of {@link #maxMessageBytes} where the cap holds one). With {@link #superseding}, a single
     * message larger than the share is still taken once its sender holds nothing else.
     */
    public Builder maxBufferedBytesPerSender(long v) {
      if (v < 1) {
        throw new IllegalArgumentException("maxBufferedBytesPerSender must be >= 1, got " + v);
      }
      maxBufferedBytesPerSender = v;
      return this;
    }

    /**
     * Whether a sender's newer message supersedes its own oldest incomplete ones where it would
     * otherwise exceed its share or a cap (default true: a sender's newer message is the one it wants
     * through). Off, the newcomer is refused instead: for messages whose order of arrival says nothing
     * of which is newer (parts retained on the broker, delivered in topic order); the shares then
     * default to the whole caps.
     */
    public Builder superseding(boolean v) {
      superseding = v;
      return this;
    }

    /** Monotonic clock in nanoseconds (default {@link System#nanoTime}); tests inject their own. */
    public Builder clock(LongSupplier v) {
      clock = Objects.requireNonNull(v, "clock");
      return this;
    }

    public Reassembler build() {
      return new Reassembler(this);
    }

    private static int positive(String name, int v) {
      if (v < 1) {
        throw new IllegalArgumentException(name + " must be >= 1, got " + v);
      }
      return v;
    }
  }
}
