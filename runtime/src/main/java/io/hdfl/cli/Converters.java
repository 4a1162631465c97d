package io.hdfl.cli;

import io.hdfl.hd.EncoderKind;
import io.hdfl.hd.EncodingPrecision;
import io.hdfl.hd.Similarity;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Option converters for the domain enums (their CLI names contain dashes). */
final class Converters {
  private Converters() {}

  /** A converter from a domain parser whose IllegalArgumentException says what is wrong. */
  private abstract static class Parsing<T> implements ITypeConverter<T> {
    abstract T parse(String value);

    @Override
    public T convert(String value) {
      try {
        return parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  static final class EncoderKindConverter extends Parsing<EncoderKind> {
    @Override
    EncoderKind parse(String value) {
      return EncoderKind.parse(value);
    }
  }

  static final class SimilarityConverter extends Parsing<Similarity> {
    @Override
    Similarity parse(String value) {
      return Similarity.parse(value);
    }
  }

  static final class EncodingPrecisionConverter extends Parsing<EncodingPrecision> {
    @Override
    EncodingPrecision parse(String value) {
      return EncodingPrecision.parse(value);
    }
  }
}
