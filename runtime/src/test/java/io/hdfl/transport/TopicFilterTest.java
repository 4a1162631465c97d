package io.hdfl.transport;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TopicFilterTest {
  @ParameterizedTest(name = "{0} ~ {1} = {2}")
  @CsvSource({
      // the examples of MQTT 3.1.1 section 4.7
      "sport/tennis/player1/#, sport/tennis/player1, true",
      "sport/tennis/player1/#, sport/tennis/player1/ranking, true",
      "sport/tennis/player1/#, sport/tennis/player1/score/wimbledon, true",
      "sport/#, sport, true",
      "#, sport/tennis, true",
      "sport/tennis/+, sport/tennis/player1, true",
      "sport/tennis/+, sport/tennis/player1/tranking, false",
      "sport/+, sport, false",
      "sport/+, sport/, true",
      "+/+, /finance, true",
      "/+, /finance, true",
      "+, /finance, false",
      "+/tennis/#, sport/tennis, true",
      "#, $SYS/broker, false",
      "+/monitor/Clients, $SYS/monitor/Clients, false",
      "$SYS/#, $SYS/broker, true",
      "$SYS/monitor/+, $SYS/monitor/Clients, true",
      // exact and near misses
      "hdfl/f/ring/1/in, hdfl/f/ring/1/in, true",
      "hdfl/f/ring/1/in, hdfl/f/ring/1/inx, false",
      "hdfl/f/ring/1, hdfl/f/ring/1/in, false",
      "hdfl/f/ring/+/in, hdfl/f/ring//in, true",
      "a/b, A/b, false",
  })
  void matchesLikeMqtt(String filter, String topic, boolean expected) {
    assertEquals(expected, TopicFilter.matches(filter, topic));
  }

  @ParameterizedTest
  @ValueSource(strings = {"#", "+", "a/#", "a/+/b", "+/+", "/", "a//b", "$SYS/#", "a/b/"})
  void validFilters(String filter) {
    assertDoesNotThrow(() -> TopicFilter.checkFilter(filter));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "a/#/b", "a#", "a/b#", "a+/b", "a/+b", "##", "a/\u0000"})
  void invalidFilters(String filter) {
    assertThrows(IllegalArgumentException.class, () -> TopicFilter.checkFilter(filter));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "a/+", "a/#", "+", "a\u0000b"})
  void invalidTopics(String topic) {
    assertThrows(IllegalArgumentException.class, () -> TopicFilter.checkTopic(topic));
  }

  @org.junit.jupiter.api.Test
  void topicsLongerThanMqttCanEncodeAreRejected() {
    assertDoesNotThrow(() -> TopicFilter.checkTopic("a".repeat(65_535)));
    assertThrows(IllegalArgumentException.class, () -> TopicFilter.checkTopic("é".repeat(32_768)));
  }
}
