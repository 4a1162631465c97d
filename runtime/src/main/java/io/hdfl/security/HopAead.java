package io.hdfl.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The authenticated cipher of model hops, both in the JDK: AES-256-GCM (fast where the CPU has AES
 * instructions: x86-64 with AES-NI, ARMv8 with the crypto extension) or ChaCha20-Poly1305 (fast in
 * software, e.g. on a Raspberry Pi 4, whose Cortex-A72 has no AES instructions).
 */
public enum HopAead {
  AES_256_GCM(1, "aes-gcm", "AES/GCM/NoPadding", "AES"),
  CHACHA20_POLY1305(2, "chacha20-poly1305", "ChaCha20-Poly1305", "ChaCha20");

  private final int id;
  private final String configName;
  private final String transformation;
  private final String keyAlgorithm;

  HopAead(int id, String configName, String transformation, String keyAlgorithm) {
    this.id = id;
    this.configName = configName;
    this.transformation = transformation;
    this.keyAlgorithm = keyAlgorithm;
  }

  /** The byte that names it in a sealed frame. */
  public int id() {
    return id;
  }

  /** The name in configs and on the command line. */
  public String configName() {
    return configName;
  }

  String transformation() {
    return transformation;
  }

  String keyAlgorithm() {
    return keyAlgorithm;
  }

  /** The cipher named {@code id} in a sealed frame, or null. */
  static HopAead byId(int id) {
    for (HopAead a : values()) {
      if (a.id == id) {
        return a;
      }
    }
    return null;
  }

  /**
   * {@code aes-gcm}, {@code chacha20-poly1305} or {@code auto} (AES-GCM where /proc/cpuinfo shows AES
   * instructions, else ChaCha20-Poly1305).
   *
   * @throws IllegalArgumentException for any other name
   */
  public static HopAead parse(String name) {
    String n = name.trim().toLowerCase(Locale.ROOT);
    if (n.equals("auto")) {
      return forThisCpu(Path.of("/proc/cpuinfo"));
    }
    for (HopAead a : values()) {
      if (a.configName.equals(n)) {
        return a;
      }
    }
    throw new IllegalArgumentException("cipher must be aes-gcm, chacha20-poly1305 or auto, got '" + name + "'");
  }

  /** AES-GCM if {@code cpuinfo} lists the {@code aes} flag (x86) or feature (ARM), else ChaCha20-Poly1305. */
  static HopAead forThisCpu(Path cpuinfo) {
    try {
      for (String line : Files.readAllLines(cpuinfo)) {
        String l = line.toLowerCase(Locale.ROOT);
        if ((l.startsWith("flags") || l.startsWith("features")) && (" " + l.substring(l.indexOf(':') + 1) + " ").contains(" aes ")) {
          return AES_256_GCM;
        }
      }
    } catch (IOException | RuntimeException e) {
      // no cpuinfo (not Linux): the software-friendly cipher
    }
    return CHACHA20_POLY1305;
  }
}
