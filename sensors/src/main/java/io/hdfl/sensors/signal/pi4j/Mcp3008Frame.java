package io.hdfl.sensors.signal.pi4j;

import java.io.IOException;
import java.util.Locale;

/**
 * The 3-byte SPI exchange of one MCP3008 conversion, as bytes (Microchip DS21295, §6.1 and figure
 * 6-1, "SPI communication using 8-bit segments"):
 * <pre>
 *   sent      0000 0001   S D2 D1 D0 xxxx   xxxx xxxx      start bit; SGL/DIFF; channel select
 *   received  ???? ????   ???? ? 0 B9 B8    B7 .. B0      null bit 0, then the 10-bit result, MSB first
 * </pre>
 * The chip drives the null bit low before the result; a 1 there means no MCP3008 answered (MISO not
 * wired, floating high, or the chip unpowered). Pure functions: the SPI call is in {@link Mcp3008}.
 */
public final class Mcp3008Frame {

  /** Bytes per exchange. */
  public static final int LENGTH = 3;
  /** Largest result, 2¹⁰ − 1. */
  public static final int MAX_CODE = 1023;

  private Mcp3008Frame() {}

  /** The bytes to send to convert {@code input}. */
  public static byte[] request(Mcp3008Input input) {
    return new byte[] {0x01, (byte) ((input.singleEnded() ? 0x80 : 0) | input.selectBits() << 4), 0x00};
  }

  /**
   * The 10-bit result of a received frame.
   *
   * @throws IOException if the frame is not 3 bytes or its null bit is not 0; the message names
   *     {@code device} and shows the bytes
   */
  public static int decode(byte[] reply, String device) throws IOException {
    if (reply.length != LENGTH) {
      throw new IOException(device + ": MCP3008 reply has " + reply.length + " bytes, expected " + LENGTH);
    }
    if ((reply[1] & 0x04) != 0) {
      throw new IOException(device + ": MCP3008 reply " + hex(reply) + " has its null bit set: no MCP3008 answering "
          + "(check MISO, chip select and power)");
    }
    return (reply[1] & 0x03) << 8 | (reply[2] & 0xFF);
  }

  static String hex(byte[] b) {
    StringBuilder s = new StringBuilder();
    for (byte x : b) {
      s.append(s.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "%02X", x & 0xFF));
    }
    return s.toString();
  }
}
