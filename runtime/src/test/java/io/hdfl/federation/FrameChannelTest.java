package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hdfl.transport.LoopbackBroker;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrameChannelTest {
  @Test
  void anEmptyPayloadClearsARetainedMessageAndIsNoFrame() throws Exception {
    try (var t = new LoopbackBroker().connect("peer")) {
      List<byte[]> frames = new ArrayList<>();
      var receiver = new FrameChannel(t, 0).receiver((topic, payload, retained) -> frames.add(payload));
      receiver.onMessage("hdfl/f/star/global", new byte[0], true);
      receiver.onMessage("hdfl/f/star/global", new byte[0], false);
      assertEquals(0, frames.size(), "an empty payload was passed on as a frame");
      byte[] framed = "HDFM and what an envelope frame holds".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      receiver.onMessage("hdfl/f/star/global", framed, false);
      assertEquals(1, frames.size(), "a payload with a frame's magic is passed on (for the decoder to check)");
    }
  }

  /**
   * A frame kept for later subscribers survives chunking: its chunks are retained on part topics, and
   * a subscriber that comes after it was published gets it whole, once. A whole frame an earlier run
   * kept on the topic is cleared, so it is not taken as this one; a frame that fits stays whole, and
   * the parts an earlier frame left can no longer complete.
   */
  @Test
  void aKeptFrameReachesALaterSubscriberWhetherItWasChunkedOrNot() throws Exception {
    LoopbackBroker broker = new LoopbackBroker();
    String topic = "hdfl/f/model/final";
    byte[] earlier = frame(300, 7);
    byte[] big = frame(5000, 3);
    try (var publisher = broker.connect("publisher")) {
      new FrameChannel(publisher, 0).publishKept(topic, earlier, 1); // an earlier run's, kept whole
      new FrameChannel(publisher, 1024).publishKept(topic, big, 1);
    }
    try (var later = broker.connect("later")) {
      List<byte[]> got = new java.util.concurrent.CopyOnWriteArrayList<>();
      List<String> topics = new java.util.concurrent.CopyOnWriteArrayList<>();
      new FrameChannel(later, 1024).subscribeKept(topic, 1, (t, payload, retained) -> {
        got.add(payload);
        topics.add(t);
      });
      FederationFixture.waitFor(() -> !got.isEmpty(), 5_000);
      Thread.sleep(200); // nothing else comes
      assertEquals(1, got.size(), "the chunked frame, not the earlier run's");
      org.junit.jupiter.api.Assertions.assertArrayEquals(big, got.get(0));
      assertEquals(List.of(topic), topics, "named by the kept topic, not a part topic");
    }
    try (var publisher = broker.connect("publisher-2"); var third = broker.connect("third")) {
      byte[] small = frame(500, 9);
      new FrameChannel(publisher, 1024).publishKept(topic, small, 1);
      List<byte[]> got = new java.util.concurrent.CopyOnWriteArrayList<>();
      new FrameChannel(third, 1024).subscribeKept(topic, 1, (t, payload, retained) -> got.add(payload));
      FederationFixture.waitFor(() -> !got.isEmpty(), 5_000);
      Thread.sleep(200); // nothing else comes
      // the earlier chunked frame's parts are still kept but lack their first: they never complete
      assertEquals(1, got.size(), "the frame that fits, not the earlier one's parts");
      org.junit.jupiter.api.Assertions.assertArrayEquals(small, got.get(0));
    }
  }

  /**
   * Kept frames are put together apart from the rest: with a peer's inbox topics holding as many
   * incomplete messages as a receiver takes (four senders at their share each), a chunked frame on
   * yet another inbox is refused, and a chunked final model still comes through. Before, both went
   * through one reassembler, and the final model's parts were refused too.
   */
  @Test
  void aKeptFrameComesThroughWhileTheInboxesAreFull() throws Exception {
    LoopbackBroker broker = new LoopbackBroker();
    try (var peer = broker.connect("peer"); var publisher = broker.connect("publisher")) {
      FrameChannel channel = new FrameChannel(peer, 1024);
      List<byte[]> inbox = new java.util.concurrent.CopyOnWriteArrayList<>();
      var receiver = channel.receiver((t, payload, retained) -> inbox.add(payload));
      long id = 1;
      for (int sender = 0; sender < 4; sender++) {
        for (int i = 0; i < 16; i++) { // a sender's share of the 64 incomplete messages: first chunks only
          receiver.onMessage("hdfl/f/ring/peer/in/peer-" + sender,
              io.hdfl.codec.ChunkSplitter.split(frame(3000, i), 1024, id++).get(0), false);
        }
      }
      for (byte[] chunk : io.hdfl.codec.ChunkSplitter.split(frame(3000, 99), 1024, id++)) {
        receiver.onMessage("hdfl/f/ring/peer/in/peer-9", chunk, false);
      }
      assertEquals(0, inbox.size(), "the inboxes are full: another chunked frame is refused");
      byte[] big = frame(5000, 3);
      List<byte[]> got = new java.util.concurrent.CopyOnWriteArrayList<>();
      channel.subscribeKept("hdfl/f/model/final", 1, (t, payload, retained) -> got.add(payload));
      new FrameChannel(publisher, 1024).publishKept("hdfl/f/model/final", big, 1);
      FederationFixture.waitFor(() -> !got.isEmpty(), 5_000);
      org.junit.jupiter.api.Assertions.assertArrayEquals(big, got.get(0));
    }
  }

  /** A payload of {@code n} bytes that starts with an envelope frame's magic. */
  private static byte[] frame(int n, int seed) {
    byte[] b = new byte[n];
    new java.util.Random(seed).nextBytes(b);
    System.arraycopy("HDFM".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, b, 0, 4);
    return b;
  }
}
