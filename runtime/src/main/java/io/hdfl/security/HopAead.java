package io.hdfl.security;

import java.util.Locale;

/**
 * The authenticated cipher of model hops, both in the JDK: ChaCha20-Poly1305 (the default) or
 * AES-256-GCM.
 *
 * <p>Why ChaCha20-Poly1305 by default, even where the CPU has AES instructions: it is fast and
 * constant-time in plain software (a Raspberry Pi 4's Cortex-A72 has no AES instructions), and the
 * JDK's AES-GCM speed depends on which of its intrinsics a CPU and VM get. Sealing a 1 MB frame
 * (D=10000, S=26) measured 2-6 ms with ChaCha20-Poly1305 and 18-25 ms with AES-GCM on JDK 17 and 25
 * on a 2-core Intel Xeon VM with AES-NI, VAES and VPCLMULQDQ, while on a 2-core AMD EPYC VM AES-GCM
 * took about 1 ms. ChaCha20-Poly1305's worst case is the better default; name {@code aes-gcm} where
 * it measures faster.
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
   * {@code aes-gcm}, {@code chacha20-poly1305} or {@code auto} (the default cipher, ChaCha20-Poly1305;
   * see the class comment).
   *
   * @throws IllegalArgumentException for any other name
   */
  public static HopAead parse(String name) {
    String n = name.trim().toLowerCase(Locale.ROOT);
    if (n.equals("auto")) {
      return CHACHA20_POLY1305;
    }
    for (HopAead a : values()) {
      if (a.configName.equals(n)) {
        return a;
      }
    }
    throw new IllegalArgumentException("cipher must be aes-gcm, chacha20-poly1305 or auto, got '" + name + "'");
  }
}
