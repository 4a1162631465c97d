package io.hdfl.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MqttSettingsTest {
  @ParameterizedTest
  @CsvSource({
      "tcp://broker:1883, tcp://broker:1883",
      "tcp://broker, tcp://broker:1883",
      "mqtt://broker, tcp://broker:1883",
      "TCP://10.0.0.5:1884/, tcp://10.0.0.5:1884",
      "ssl://broker, ssl://broker:8883",
      "mqtts://broker:8884, ssl://broker:8884",
      "' tcp://127.0.0.1:1883 ', tcp://127.0.0.1:1883",
  })
  void urlsAreNormalized(String given, String normalized) {
    assertEquals(normalized, MqttSettings.normalizeUri(given));
    assertEquals(normalized, MqttSettings.builder(given).build().uri());
  }

  @Test
  void defaults() {
    MqttSettings s = MqttSettings.builder("tcp://h").build();
    assertTrue(s.clientId().matches("hdfl-[0-9a-f]{12}"), s.clientId());
    assertFalse(s.tls());
    assertNull(s.username());
    assertNull(s.will());
    assertEquals(Duration.ofSeconds(30), s.keepAlive());
    assertEquals(64, s.maxInflight());
    assertTrue(MqttSettings.builder("ssl://h").build().tls());
    assertFalse(s.clientId().equals(MqttSettings.builder("tcp://h").build().clientId()), "random ids");
  }

  @Test
  void toStringNeverShowsPasswords() {
    MqttSettings s = MqttSettings.builder("ssl://h").credentials("bob", "hunter2")
        .clientPkcs12(Path.of("c.p12"), "p12secret").build();
    assertFalse(s.toString().contains("hunter2"), s.toString());
    assertFalse(s.toString().contains("p12secret"), s.toString());
    assertTrue(s.toString().contains("username=bob"), s.toString());
  }

  @Test
  void inconsistentSettingsAreRejected() {
    assertThrows(IllegalArgumentException.class,
        () -> MqttSettings.builder("tcp://h").caFile(Path.of("ca.pem")).build());
    assertThrows(IllegalArgumentException.class,
        () -> MqttSettings.builder("tcp://h").credentials(null, "pw").build());
    assertThrows(IllegalArgumentException.class,
        () -> MqttSettings.builder("tcp://h").clientId("").build());
    assertThrows(IllegalArgumentException.class,
        () -> MqttSettings.builder("tcp://h").keepAlive(Duration.ZERO).build());
    assertThrows(IllegalArgumentException.class,
        () -> MqttSettings.builder("tcp://h").maxInflight(0).build());
  }

  @Test
  void copiesChangeOneField() {
    LastWill will = new LastWill("hdfl/f/peers/p1", "offline".getBytes(), 1, true);
    MqttSettings s = MqttSettings.builder("tcp://h").clientId("a").build();
    assertEquals("b", s.withClientId("b").clientId());
    assertEquals(will, s.withWill(will).will());
    assertEquals("tcp://h:1883", s.withWill(will).uri());
  }
}
