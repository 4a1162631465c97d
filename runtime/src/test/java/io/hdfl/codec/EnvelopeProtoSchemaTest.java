package io.hdfl.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumDescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumValueDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import io.hdfl.codec.ModelEnvelope.Kind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The shipped envelope.proto and the hand-written codec describe the same bytes: the .proto is
 * parsed (a minimal parser for the subset it uses), turned into a descriptor, and stock protobuf
 * (DynamicMessage) reads what the codec writes and writes what the codec reads, byte for byte.
 */
class EnvelopeProtoSchemaTest {
  private static Descriptor header;

  static Path protoFile() {
    Path rel = Path.of("runtime/src/main/proto/hdfl/codec/v1/envelope.proto");
    Path p = Path.of(System.getProperty("hdfl.repo.root", ".")).resolve(rel);
    return Files.exists(p) ? p : Path.of("..").resolve(rel);
  }

  @BeforeAll
  static void parseProto() throws Exception {
    String text = Files.readString(protoFile()).replaceAll("//[^\n]*", "");
    FileDescriptorProto.Builder file = FileDescriptorProto.newBuilder().setName("hdfl/codec/v1/envelope.proto");
    Matcher syntax = Pattern.compile("syntax\\s*=\\s*\"(\\w+)\"\\s*;").matcher(text);
    assertTrue(syntax.find());
    file.setSyntax(syntax.group(1));
    Matcher pkg = Pattern.compile("\\bpackage\\s+([\\w.]+)\\s*;").matcher(text);
    assertTrue(pkg.find());
    file.setPackage(pkg.group(1));
    Matcher block = Pattern.compile("\\b(enum|message)\\s+(\\w+)\\s*\\{([^}]*)}").matcher(text);
    List<String> enums = new ArrayList<>();
    Map<String, String> messages = new LinkedHashMap<>();
    while (block.find()) {
      if (block.group(1).equals("enum")) {
        EnumDescriptorProto.Builder e = EnumDescriptorProto.newBuilder().setName(block.group(2));
        Matcher v = Pattern.compile("(\\w+)\\s*=\\s*(-?\\d+)\\s*;").matcher(block.group(3));
        while (v.find()) {
          e.addValue(EnumValueDescriptorProto.newBuilder().setName(v.group(1)).setNumber(Integer.parseInt(v.group(2))));
        }
        file.addEnumType(e);
        enums.add(block.group(2));
      } else {
        messages.put(block.group(2), block.group(3));
      }
    }
    for (Map.Entry<String, String> m : messages.entrySet()) {
      DescriptorProto.Builder d = DescriptorProto.newBuilder().setName(m.getKey());
      Matcher f = Pattern.compile("(repeated\\s+)?(\\w+)\\s+(\\w+)\\s*=\\s*(\\d+)\\s*;").matcher(m.getValue());
      while (f.find()) {
        FieldDescriptorProto.Builder fd = FieldDescriptorProto.newBuilder().setName(f.group(3))
            .setNumber(Integer.parseInt(f.group(4)))
            .setLabel(f.group(1) != null ? FieldDescriptorProto.Label.LABEL_REPEATED : FieldDescriptorProto.Label.LABEL_OPTIONAL);
        String type = f.group(2);
        if (enums.contains(type)) {
          fd.setType(FieldDescriptorProto.Type.TYPE_ENUM).setTypeName("." + file.getPackage() + "." + type);
        } else {
          fd.setType(FieldDescriptorProto.Type.valueOf("TYPE_" + type.toUpperCase(java.util.Locale.ROOT)));
        }
        d.addField(fd);
      }
      file.addMessageType(d);
    }
    FileDescriptor fd = FileDescriptor.buildFrom(file.build(), new FileDescriptor[0]);
    header = fd.findMessageTypeByName("EnvelopeHeader");
    assertNotNull(header);
  }

  private static FieldDescriptor field(String name) {
    FieldDescriptor f = header.findFieldByName(name);
    assertNotNull(f, name);
    return f;
  }

  @Test
  void fieldNumbersAndTypesMatchTheCodec() {
    Object[][] expected = {
        {"kind", EnvelopeHeader.KIND, FieldDescriptor.Type.ENUM},
        {"federation", EnvelopeHeader.FEDERATION, FieldDescriptor.Type.STRING},
        {"sender", EnvelopeHeader.SENDER, FieldDescriptor.Type.STRING},
        {"round", EnvelopeHeader.ROUND, FieldDescriptor.Type.UINT32},
        {"step", EnvelopeHeader.STEP, FieldDescriptor.Type.UINT64},
        {"encoder", EnvelopeHeader.ENCODER, FieldDescriptor.Type.STRING},
        {"features", EnvelopeHeader.FEATURES, FieldDescriptor.Type.UINT32},
        {"basis_seed", EnvelopeHeader.BASIS_SEED, FieldDescriptor.Type.FIXED64},
        {"dim", EnvelopeHeader.DIM, FieldDescriptor.Type.UINT32},
        {"classes", EnvelopeHeader.CLASSES, FieldDescriptor.Type.UINT32},
        {"dtype", EnvelopeHeader.DTYPE, FieldDescriptor.Type.ENUM},
        {"present_variance", EnvelopeHeader.PRESENT_VARIANCE, FieldDescriptor.Type.DOUBLE},
        {"samples_absorbed", EnvelopeHeader.SAMPLES_ABSORBED, FieldDescriptor.Type.UINT64},
        {"ledger_lines", EnvelopeHeader.LEDGER_LINES, FieldDescriptor.Type.STRING},
        {"signature", EnvelopeHeader.SIGNATURE, FieldDescriptor.Type.BYTES}};
    assertEquals(expected.length, header.getFields().size());
    for (Object[] e : expected) {
      FieldDescriptor f = field((String) e[0]);
      assertEquals(e[1], f.getNumber(), f.getName());
      assertEquals(e[2], f.getType(), f.getName());
      assertEquals(f.getName().equals("ledger_lines"), f.isRepeated(), f.getName());
    }
    EnumDescriptor kind = field("kind").getEnumType();
    assertEquals(Kind.values().length + 1, kind.getValues().size());
    assertEquals(0, kind.findValueByName("KIND_UNSPECIFIED").getNumber());
    for (Kind k : Kind.values()) {
      assertEquals(EnvelopeHeader.kindCode(k), kind.findValueByName(k.name()).getNumber(), k.name());
    }
    EnumDescriptor dtype = field("dtype").getEnumType();
    assertEquals(Dtype.values().length, dtype.getValues().size());
    for (Dtype d : Dtype.values()) {
      assertEquals(d.code(), dtype.findValueByName("DTYPE_" + d.name()).getNumber(), d.name());
    }
  }

  private static DynamicMessage stock(EnvelopeHeader h) {
    DynamicMessage.Builder b = DynamicMessage.newBuilder(header);
    // Deliberately not in field-number order: the serializer orders them.
    b.setField(field("signature"), ByteString.copyFrom(h.signature()));
    for (String line : h.ledgerLines()) {
      b.addRepeatedField(field("ledger_lines"), line);
    }
    b.setField(field("dtype"), field("dtype").getEnumType().findValueByNumber(h.dtype().code()));
    b.setField(field("kind"), field("kind").getEnumType().findValueByNumber(EnvelopeHeader.kindCode(h.kind())));
    b.setField(field("federation"), h.federation());
    b.setField(field("sender"), h.sender());
    b.setField(field("round"), h.round());
    b.setField(field("step"), h.step());
    b.setField(field("encoder"), h.encoder());
    b.setField(field("features"), h.features());
    b.setField(field("basis_seed"), h.basisSeed());
    b.setField(field("dim"), h.dim());
    b.setField(field("classes"), h.classes());
    b.setField(field("present_variance"), h.presentVariance());
    b.setField(field("samples_absorbed"), h.samplesAbsorbed());
    return b.build();
  }

  private static List<EnvelopeHeader> samples() {
    List<EnvelopeHeader> hs = new ArrayList<>();
    hs.add(EnvelopeHeader.of(Frames.model(Kind.RING_MODEL, 2, 3), Dtype.FLOAT32));
    hs.add(EnvelopeHeader.of(Frames.model(Kind.CLIENT_UPDATE, 26, 10000), Dtype.BFLOAT16));
    hs.add(EnvelopeHeader.of(Frames.ack(), Dtype.FLOAT32));
    hs.add(new EnvelopeHeader(Kind.FINAL_MODEL, "ü", "\uD83D\uDE00", Integer.MAX_VALUE, Long.MAX_VALUE, "cos-bias",
        1, Long.MIN_VALUE, 1, 1, Dtype.FLOAT32, Double.MIN_VALUE, Long.MAX_VALUE, List.of("", "x"), new byte[64]));
    return hs;
  }

  @Test
  void stockProtobufReadsWhatTheCodecWrites() throws IOException {
    for (EnvelopeHeader h : samples()) {
      byte[] ours = h.toBytes();
      DynamicMessage m = DynamicMessage.parseFrom(header, ours);
      assertTrue(m.getUnknownFields().asMap().isEmpty());
      assertEquals(stock(h), m);
      assertArrayEquals(stock(h).toByteArray(), ours, "the codec writes the canonical proto3 serialization");
    }
  }

  @Test
  void codecReadsWhatStockProtobufWrites() {
    for (EnvelopeHeader h : samples()) {
      byte[] theirs = stock(h).toByteArray();
      int values = h.kind() == Kind.ACK ? 0 : h.dim() * h.classes();
      byte[] frame = Frames.frame(theirs, new byte[values * h.dtype().bytesPerValue()]);
      ModelEnvelope e = EnvelopeCodec.decode(frame, Expectations.defaults());
      assertEquals(h.kind(), e.kind());
      assertEquals(h.federation(), e.federation());
      assertEquals(h.sender(), e.sender());
      assertEquals(h.round(), e.round());
      assertEquals(h.step(), e.step());
      assertEquals(h.encoder(), e.encoder());
      assertEquals(h.features(), e.features());
      assertEquals(h.basisSeed(), e.basisSeed());
      assertEquals(h.dim(), e.dim());
      assertEquals(h.classes(), e.classes());
      assertEquals(h.presentVariance(), e.presentVariance());
      assertEquals(h.samplesAbsorbed(), e.samplesAbsorbed());
      assertEquals(h.ledgerLines(), e.ledgerLines());
      assertArrayEquals(h.signature(), e.signature());
      assertEquals(values, e.prototypes().length);
    }
  }
}
