package io.hdfl.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

class CsvLineReaderTest {
  /** Hands out one char per read call, to exercise buffer boundaries (e.g. inside CRLF). */
  private static Reader trickle(String s) {
    return new Reader() {
      private int pos;

      @Override
      public int read(char[] cbuf, int off, int len) {
        if (pos >= s.length()) {
          return -1;
        }
        cbuf[off] = s.charAt(pos++);
        return 1;
      }

      @Override
      public void close() {}
    };
  }

  @Test
  void allLineEndingsAndNumbers() throws IOException {
    for (boolean slow : new boolean[] {false, true}) {
      String text = "a\nb\r\nc\rd\r\n\r\ne";
      CsvLineReader r =
          new CsvLineReader(slow ? trickle(text) : new StringReader(text), "t");
      String[] expected = {"a", "b", "c", "d", "", "e"};
      for (int i = 0; i < expected.length; i++) {
        assertEquals(expected[i], r.next());
        assertEquals(i + 1, r.lineNumber());
      }
      assertNull(r.next());
    }
  }

  @Test
  void trailingNewlineGivesNoExtraLine() throws IOException {
    CsvLineReader r = new CsvLineReader(new StringReader("x\n"), "t");
    assertEquals("x", r.next());
    assertNull(r.next());
  }

  @Test
  void overlongLineFails() throws IOException {
    CsvLineReader r = new CsvLineReader(new StringReader("ok\n" + "y".repeat(100) + "\n"), "f", 50);
    assertEquals("ok", r.next());
    DatasetFormatException e = assertThrows(DatasetFormatException.class, r::next);
    assertEquals("f: line 2 is longer than 50 characters", e.getMessage());
  }
}
