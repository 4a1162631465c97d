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
}
