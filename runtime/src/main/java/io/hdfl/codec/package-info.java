/**
 * The wire format between peers: pure bytes ↔ records, no I/O.
 *
 * <ul>
 *   <li>{@link io.hdfl.codec.EnvelopeCodec} turns a {@link io.hdfl.codec.ModelEnvelope} into a
 *       versioned frame ("HDFM", version, protobuf header, float32 or bfloat16 tensor, CRC-32C) and
 *       back, checking a received frame against the receiver's {@link io.hdfl.codec.Expectations};
 *       failures are {@link io.hdfl.codec.EnvelopeException}s with a machine-readable reason.
 *   <li>{@link io.hdfl.codec.ChunkSplitter} splits frames larger than a broker's maximum packet
 *       into chunks ("HDFC"); {@link io.hdfl.codec.Reassembler} puts them back together under a
 *       timeout and a memory cap; failures are {@link io.hdfl.codec.ChunkException}s.
 * </ul>
 *
 * The header's schema is {@code runtime/src/main/proto/hdfl/codec/v1/envelope.proto}.
 */
package io.hdfl.codec;
