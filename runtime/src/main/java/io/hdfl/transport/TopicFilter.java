package io.hdfl.transport;

import java.nio.charset.StandardCharsets;

/**
 * MQTT 3.1.1 topic names and topic filters (spec §4.7): levels separated by {@code /}, {@code +}
 * matches exactly one level, {@code #} (last level only) matches the parent level and any number of
 * levels below it, and a filter starting with a wildcard does not match topics starting with {@code $}.
 */
public final class TopicFilter {
  /** Longest topic or filter MQTT can encode (a UTF-8 string with a 16-bit length). */
  public static final int MAX_UTF8_BYTES = 65_535;

  private TopicFilter() {}

  /** Whether {@code filter} matches the topic name {@code topic}; both are assumed valid. */
  public static boolean matches(String filter, String topic) {
    if (topic.startsWith("$") && (filter.startsWith("+") || filter.startsWith("#"))) {
      return false;
    }
    // Level by level without splitting: every publish is matched against every subscription.
    int fi = 0;
    int ti = 0;
    int fl = filter.length();
    int tl = topic.length();
    while (true) {
      int fe = filter.indexOf('/', fi);
      if (fe < 0) {
        fe = fl;
      }
      int flen = fe - fi;
      if (flen == 1 && filter.charAt(fi) == '#') {
        return true; // this level and everything below, also the parent ("a/#" matches "a")
      }
      if (ti > tl) {
        return false; // the topic has fewer levels than the filter
      }
      int te = topic.indexOf('/', ti);
      if (te < 0) {
        te = tl;
      }
      boolean plus = flen == 1 && filter.charAt(fi) == '+';
      if (!plus && (flen != te - ti || !filter.regionMatches(fi, topic, ti, flen))) {
        return false;
      }
      boolean filterDone = fe == fl;
      boolean topicDone = te == tl;
      if (filterDone || topicDone) {
        if (filterDone && topicDone) {
          return true;
        }
        if (topicDone && !filterDone) {
          // the topic ended: only a trailing "/#" in the filter still matches ("a/#" matches "a")
          return filter.length() - fe == 2 && filter.charAt(fe + 1) == '#';
        }
        return false;
      }
      fi = fe + 1;
      ti = te + 1;
    }
  }

  /**
   * The filter's levels before its first wildcard, without the separating {@code /} (the whole filter
   * when it has none; empty when it starts with one): every topic the filter matches starts with it,
   * so a broker can rule most subscriptions out with one {@code startsWith}.
   */
  public static String literalPrefix(String filter) {
    for (int i = 0; i < filter.length(); i++) {
      char c = filter.charAt(i);
      if ((c == '+' || c == '#') && (i == 0 || filter.charAt(i - 1) == '/')) {
        return i == 0 ? "" : filter.substring(0, i - 1);
      }
    }
    return filter;
  }

  /** Checks a topic name to publish to: non-empty, no wildcards, no NUL, at most 65535 UTF-8 bytes. */
  public static void checkTopic(String topic) {
    checkCommon(topic, "topic");
    if (topic.indexOf('+') >= 0 || topic.indexOf('#') >= 0) {
      throw new IllegalArgumentException("topic must not contain wildcards + or #: " + topic);
    }
  }

  /** The argument checks every {@link Transport#subscribe} makes, in one place. */
  static void checkSubscription(String topicFilter, int qos, MessageHandler handler) {
    checkFilter(topicFilter);
    QosLevel.check(qos);
    if (handler == null) {
      throw new IllegalArgumentException("handler must not be null");
    }
  }

  /** Checks a topic filter: {@code +} and {@code #} fill a whole level, {@code #} only as the last. */
  public static void checkFilter(String filter) {
    checkCommon(filter, "topic filter");
    int start = 0;
    int n = filter.length();
    while (start <= n) {
      int end = indexOfSlash(filter, start);
      for (int i = start; i < end; i++) {
        char c = filter.charAt(i);
        if ((c == '+' || c == '#') && end - start != 1) {
          throw new IllegalArgumentException(
              "wildcard " + c + " must fill a whole level of the topic filter: " + filter);
        }
        if (c == '#' && end != n) {
          throw new IllegalArgumentException("# must be the last level of the topic filter: " + filter);
        }
      }
      start = end + 1;
    }
  }

  private static void checkCommon(String s, String what) {
    if (s == null || s.isEmpty()) {
      throw new IllegalArgumentException(what + " must not be empty");
    }
    if (s.indexOf('\u0000') >= 0) {
      throw new IllegalArgumentException(what + " must not contain NUL: " + s);
    }
    if (s.getBytes(StandardCharsets.UTF_8).length > MAX_UTF8_BYTES) {
      throw new IllegalArgumentException(what + " longer than " + MAX_UTF8_BYTES + " UTF-8 bytes");
    }
  }

  private static int indexOfSlash(String s, int from) {
    if (from > s.length()) {
      return s.length();
    }
    int i = s.indexOf('/', from);
    return i < 0 ? s.length() : i;
  }
}
