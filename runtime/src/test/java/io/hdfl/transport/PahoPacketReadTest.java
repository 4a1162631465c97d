package io.hdfl.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import org.eclipse.paho.client.mqttv3.internal.wire.CountingInputStream;
import org.junit.jupiter.api.Test;

/** Paho's packet reader must be hdfl's bulk-reading one (see its class comment for why). */
class PahoPacketReadTest {
  @Test
  void hdflsClassIsTheOneLoadedNotPahos() {
    String where = CountingInputStream.class.getProtectionDomain().getCodeSource().getLocation().toString();
    assertFalse(where.contains("org.eclipse.paho.client.mqttv3"),
        "Paho's slow CountingInputStream was loaded from " + where + ": hdfl's classes must precede the Paho jar");
  }

  @Test
  void bulkReadsAreCountedLikeSingleBytes() throws Exception {
    byte[] data = new byte[100_000];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) (i * 31);
    }
    CountingInputStream in = new CountingInputStream(new ByteArrayInputStream(data));
    assertEquals(data[0] & 0xff, in.read());
    byte[] rest = new byte[data.length - 1];
    new DataInputStream(in).readFully(rest);
    assertEquals(data.length, in.getCounter());
    assertArrayEquals(java.util.Arrays.copyOfRange(data, 1, data.length), rest);
    assertEquals(-1, in.read(new byte[4], 0, 4));
    assertEquals(data.length, in.getCounter());
    in.resetCounter();
    assertEquals(0, in.getCounter());
  }
}
