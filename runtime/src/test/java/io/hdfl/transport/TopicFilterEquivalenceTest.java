package io.hdfl.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The allocation-free matcher against a plain split-by-level reference on random filters and topics. */
class TopicFilterEquivalenceTest {
  static boolean reference(String filter, String topic) {
    if (topic.startsWith("$") && (filter.startsWith("+") || filter.startsWith("#"))) {
      return false;
    }
    String[] f = filter.split("/", -1);
    String[] t = topic.split("/", -1);
    for (int i = 0; i < f.length; i++) {
      if (f[i].equals("#")) {
        return true;
      }
      if (i >= t.length || !(f[i].equals("+") || f[i].equals(t[i]))) {
        return false;
      }
    }
    return f.length == t.length;
  }

  @Test
  void literalPrefixIsWhatEveryMatchingTopicStartsWith() {
    assertEquals("hdfl/f/ring/p1/in", TopicFilter.literalPrefix("hdfl/f/ring/p1/in/+"));
    assertEquals("hdfl/f", TopicFilter.literalPrefix("hdfl/f/#"));
    assertEquals("a/b", TopicFilter.literalPrefix("a/b"));
    assertEquals("", TopicFilter.literalPrefix("+/b"));
    assertEquals("", TopicFilter.literalPrefix("#"));
    assertTrue(TopicFilter.matches("hdfl/f/#", "hdfl/f")); // the parent level: why the '/' is left out
  }

  @Test
  void agreesWithTheReferenceOnRandomCases() {
    String[] levels = {"a", "b", "ab", "", "$SYS", "hdfl"};
    SplittableRandom r = new SplittableRandom(5);
    for (int i = 0; i < 200_000; i++) {
      StringBuilder t = new StringBuilder();
      int tn = 1 + r.nextInt(4);
      for (int k = 0; k < tn; k++) {
        if (k > 0) {
          t.append('/');
        }
        t.append(levels[r.nextInt(levels.length)]);
      }
      StringBuilder f = new StringBuilder();
      int fn = 1 + r.nextInt(4);
      for (int k = 0; k < fn; k++) {
        if (k > 0) {
          f.append('/');
        }
        int pick = r.nextInt(levels.length + 2);
        if (pick == levels.length) {
          f.append('+');
        } else if (pick == levels.length + 1) {
          f.append('#');
          break; // '#' only last
        } else {
          f.append(levels[pick]);
        }
      }
      String filter = f.toString();
      String topic = t.toString();
      boolean expected = reference(filter, topic);
      assertEquals(expected, TopicFilter.matches(filter, topic), filter + " vs " + topic);
      if (expected) {
        assertTrue(topic.startsWith(TopicFilter.literalPrefix(filter)), filter + " vs " + topic);
      }
    }
  }
}
