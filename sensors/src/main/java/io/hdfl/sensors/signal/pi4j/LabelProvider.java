package io.hdfl.sensors.signal.pi4j;

import io.hdfl.sensors.signal.Sample;
import java.io.IOException;

/**
 * Tells a {@link PolledSignalSource} the class label of the sample it is taking, e.g. a
 * {@link LabelSwitch} the operator sets to the quality class being produced.
 */
@FunctionalInterface
public interface LabelProvider {

  /**
   * The label of the current sample: a class index ≥ 0, or {@link Sample#NO_LABEL}. Called once per
   * sample, right after the devices were read.
   *
   * @throws IOException if the label cannot be read
   */
  int label() throws IOException;
}
