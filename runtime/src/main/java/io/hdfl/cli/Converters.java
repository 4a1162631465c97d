package io.hdfl.cli;

import io.hdfl.hd.EncoderKind;
import io.hdfl.hd.Similarity;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Option converters for the domain enums (their CLI names contain dashes). */
final class Converters {
  private Converters() {}

  static final class EncoderKindConverter implements ITypeConverter<EncoderKind> {
    @Override
    public EncoderKind convert(String value) {
      try {
        return EncoderKind.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  static final class SimilarityConverter implements ITypeConverter<Similarity> {
    @Override
    public Similarity convert(String value) {
      try {
        return Similarity.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
