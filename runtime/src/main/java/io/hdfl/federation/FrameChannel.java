package io.hdfl.federation;

import io.hdfl.codec.ChunkException;
import io.hdfl.codec.ChunkSplitter;
import io.hdfl.codec.Reassembler;
import io.hdfl.transport.MessageHandler;
import io.hdfl.transport.Transport;
import io.hdfl.transport.TransportException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Envelope frames over a transport whose broker limits the packet size. A frame larger than {@code
 * maxPacketBytes} is split into chunks (each a separate QoS 1 message) and reassembled on receipt,
 * with a timeout and a memory cap; smaller frames travel as they are. MQTT keeps only the last
 * retained message of a topic, so {@link #publish} sends a frame that must be chunked without the
 * retained flag: the run's receivers subscribe before it starts, and the star's aggregator
 * re-announces its global model. A frame that must stay on the broker for whoever subscribes later
 * (the final model) goes through {@link #publishKept}: chunked, each chunk is retained on a part
 * topic of its own, {@code <topic>/part/<i>}, and {@link #subscribeKept} reads both.
 */
public final class FrameChannel {
  private static final System.Logger LOG = System.getLogger("io.hdfl.federation");
  /** The smallest packet limit a frame can be chunked for (a chunk's header must fit with room to spare). */
  public static final int MIN_PACKET_BYTES = 256;

  private final Transport transport;
  private final int maxPacketBytes;
  private final Reassembler reassembler = Reassembler.builder().build();
  /**
   * What this peer refused (bad chunks here; forged, altered or malformed frames in its roles), told
   * at most a burst a minute: anyone on the broker can send them.
   */
  private final RejectionLog refusals = RejectionLog.of(LOG, System.Logger.Level.WARNING);
  /** Replayed sealed frames (an MQTT QoS 1 redelivery looks like one): notes, as sparing. */
  private final RejectionLog replays = RejectionLog.of(LOG, System.Logger.Level.INFO);
  /**
   * Frames kept on the broker ({@link #subscribeKept}) are put together apart from the rest: every
   * member may write the final model's topics, and its parts all count as one sender, so neither can
   * take the share of the others (a flood there cannot block a peer's inbox, nor the reverse). No
   * sender shares and no superseding here: stale parts of an earlier, larger final model (above the
   * current part count) may arrive after the current model's first part, and must not supersede it;
   * what does not fit is refused, as before there were shares.
   */
  private final Reassembler kept = Reassembler.builder().superseding(false).build();
  private final AtomicLong messageIds = new AtomicLong(ThreadLocalRandom.current().nextLong());

  /** @param maxPacketBytes largest payload the broker accepts; 0 = no limit (never chunk) */
  public FrameChannel(Transport transport, int maxPacketBytes) {
    checkMaxPacket(maxPacketBytes);
    this.transport = transport;
    this.maxPacketBytes = maxPacketBytes;
  }

  /**
   * Checks a packet limit: 0 (no limit) or at least {@link #MIN_PACKET_BYTES}.
   *
   * @throws IllegalArgumentException otherwise
   */
  public static void checkMaxPacket(int maxPacketBytes) {
    if (maxPacketBytes < 0 || (maxPacketBytes > 0 && maxPacketBytes < MIN_PACKET_BYTES)) {
      throw new IllegalArgumentException("--max-packet must be 0 (no limit) or at least " + MIN_PACKET_BYTES
          + " bytes, got " + maxPacketBytes);
    }
  }

  /** Publishes a frame, in chunks when it exceeds the packet limit. */
  public void publish(String topic, byte[] frame, int qos, boolean retained) throws TransportException {
    if (maxPacketBytes == 0 || frame.length <= maxPacketBytes) {
      transport.publish(topic, frame, qos, retained);
      return;
    }
    List<byte[]> chunks = ChunkSplitter.split(frame, maxPacketBytes, messageIds.incrementAndGet());
    for (byte[] c : chunks) {
      transport.publish(topic, c, Math.max(1, qos), false);
    }
  }

  /**
   * Publishes a frame that the broker keeps for later subscribers (retained): whole when it fits the
   * packet limit, after clearing part 0 (so that the parts an earlier frame left can no longer
   * complete); otherwise, after clearing the whole-frame topic (so that a whole frame an earlier run
   * kept there is not taken as this one), each chunk retained on its part topic {@code
   * <topic>/part/<i>}. The clear goes first: whoever takes the frame may close this connection at once
   * (a device does), and the broker handles a connection's messages in order. Read it with {@link
   * #subscribeKept}.
   */
  public void publishKept(String topic, byte[] frame, int qos) throws TransportException {
    int atLeastOnce = Math.max(1, qos);
    if (maxPacketBytes == 0 || frame.length <= maxPacketBytes) {
      transport.publish(partTopic(topic, 0), new byte[0], atLeastOnce, true);
      transport.publish(topic, frame, qos, true);
      return;
    }
    List<byte[]> chunks = ChunkSplitter.split(frame, maxPacketBytes, messageIds.incrementAndGet());
    transport.publish(topic, new byte[0], atLeastOnce, true);
    for (int i = 0; i < chunks.size(); i++) {
      transport.publish(partTopic(topic, i), chunks.get(i), atLeastOnce, true);
    }
  }

  /** Where {@link #publishKept} retains chunk {@code index} of a frame kept on {@code topic}. */
  public static String partTopic(String topic, int index) {
    return topic + "/part/" + index;
  }

  /**
   * Subscribes to the frames kept on {@code topic} ({@link #publishKept}), whole or in retained parts:
   * {@code onFrame} gets each whole frame with {@code topic}.
   */
  public void subscribeKept(String topic, int qos, MessageHandler onFrame) throws TransportException {
    MessageHandler frames = receiver(onFrame, kept, refusals);
    String parts = topic + "/part/";
    transport.subscribe(topic, qos, frames);
    transport.subscribe(parts + "+", qos, (t, payload, retained) -> frames.onMessage(topic, payload, retained));
  }

  /** Says why a frame was refused: a warning, at most {@link RejectionLog#BURST} a minute. */
  void refused(String line) {
    refusals.refused(line);
  }

  /**
   * How many frames this peer refused so far (not counting replays) and the last reason, or null if
   * none: a run that never ends may be one whose peers' settings differ.
   */
  public String refusedSummary() {
    return refusals.summary();
  }

  /** Notes a replayed sealed frame refused, as sparing as {@link #refused}. */
  void replayed(String line) {
    replays.refused(line);
  }

  /**
   * A handler that reassembles chunked frames (keyed by topic) and passes whole frames on; an empty
   * payload, which clears a topic's retained message, is no frame and is dropped silently.
   */
  public MessageHandler receiver(MessageHandler onFrame) {
    return receiver(onFrame, reassembler, refusals);
  }

  private static MessageHandler receiver(MessageHandler onFrame, Reassembler reassembler, RejectionLog refusals) {
    return (topic, payload, retained) -> {
      if (payload.length == 0) {
        return; // a retained message being cleared (an empty publish): no frame is empty
      }
      Optional<byte[]> frame;
      try {
        frame = reassembler.offer(topic, payload);
      } catch (ChunkException e) {
        refusals.refused("rejected a packet on " + topic + ": " + e.getMessage());
        return;
      }
      frame.ifPresent(f -> onFrame.onMessage(topic, f, retained));
    };
  }
}
