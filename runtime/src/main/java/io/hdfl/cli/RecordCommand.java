package io.hdfl.cli;

import io.hdfl.sensors.signal.Pacing;
import io.hdfl.sensors.signal.Sample;
import io.hdfl.sensors.signal.SignalRecorder;
import io.hdfl.sensors.signal.SignalSource;
import io.hdfl.sensors.signal.SyntheticMachiningSource;
import io.hdfl.sensors.signal.pi4j.HardwareSignalConfig;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code hdfl record}: write what a signal source produces to an HDSG recording, for replay. */
@Command(name = "record", mixinStandardHelpOptions = true,
    description = "Record a signal source to a file (the project's HDSG format, replayed by the sensors' "
        + "RecordedSignalSource): the synthetic machine, or the ADCs and GPIO inputs a properties file's signal.* "
        + "keys describe (Pi4J; needs the linuxfs/gpiod plugins on the device).")
final class RecordCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--source", required = true, paramLabel = "synthetic-machining|hardware",
      description = "What to record.")
  String source;

  @Option(names = "--config", paramLabel = "FILE", description = "hardware: properties file with the signal.* keys.")
  Path config;

  @Option(names = "--machine", defaultValue = "0", description = "synthetic-machining: machine index (default: 0).")
  int machine;

  @Option(names = "--seed", defaultValue = "42", description = "synthetic-machining: seed (default: 42).")
  long seed;

  @Option(names = "--real-time", description = "synthetic-machining: pace samples at their real rate.")
  boolean realTime;

  @Option(names = "--seconds", required = true, description = "Seconds of signal to record (by sample count).")
  double seconds;

  @Option(names = "--out", required = true, paramLabel = "FILE", description = "New recording (never overwritten).")
  Path out;

  @Override
  public Integer call() throws Exception {
    if (!(seconds > 0) || seconds > 7 * 24 * 3600) {
      throw new IllegalArgumentException("--seconds must be > 0 and at most a week, got " + seconds);
    }
    if (Files.exists(out)) {
      throw new IllegalArgumentException(out + " exists; a recording is never overwritten");
    }
    try (SignalSource s = open()) {
      long target = Math.max(1, Math.round(seconds * s.sampleRateHz()));
      long written = 0;
      try (SignalRecorder r = SignalRecorder.create(out, s.channels(), s.sampleRateHz())) {
        Sample sample;
        while (written < target && (sample = s.next()) != null) {
          r.write(sample);
          written++;
        }
      }
      spec.commandLine().getOut().printf("recorded %d samples x %d channels at %.6g Hz to %s%n", written,
          s.channels().size(), s.sampleRateHz(), out);
    }
    return 0;
  }

  private SignalSource open() throws Exception {
    switch (source) {
      case "synthetic-machining":
        return SyntheticMachiningSource.builder().seed(seed).machine(machine)
            .pacing(realTime ? Pacing.REAL_TIME : Pacing.AS_FAST_AS_POSSIBLE).build();
      case "hardware": {
        if (config == null) {
          throw new IllegalArgumentException("--source hardware needs --config FILE with the signal.* keys");
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(config, StandardCharsets.UTF_8)) {
          p.load(r);
        }
        HardwareSignalConfig hw = HardwareSignalConfig.fromProperties(p, "signal.");
        return hw.open(com.pi4j.Pi4J.newAutoContext());
      }
      default:
        throw new IllegalArgumentException("--source must be synthetic-machining or hardware, got '" + source + "'");
    }
  }
}
