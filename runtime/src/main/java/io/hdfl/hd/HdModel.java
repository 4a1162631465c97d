package io.hdfl.hd;

import java.util.List;

/** A trained classifier: how to encode, how to score, the prototypes and the class names. */
public record HdModel(EncoderSpec encoder, Similarity similarity, ClassPrototypes prototypes, List<String> classNames) {
  public HdModel {
    if (prototypes.dim() != encoder.dim()) {
      throw new IllegalArgumentException("prototypes D=" + prototypes.dim() + " but encoder D=" + encoder.dim());
    }
    if (classNames.size() != prototypes.classes()) {
      throw new IllegalArgumentException(classNames.size() + " class names for " + prototypes.classes() + " classes");
    }
    classNames = List.copyOf(classNames);
  }
}
