/**
 * Data sets for hdfl: the in-memory {@link io.hdfl.data.Dataset}, loaders for the {@code
 * choir_dat}, IDX (MNIST / Fashion-MNIST) and CSV formats, a seeded {@link
 * io.hdfl.data.StratifiedSplit} and the seeded IID / non-IID {@link io.hdfl.data.Partitioner}
 * that deals a data set out to simulated clients.
 *
 * <p>Every loader treats its file as untrusted: it never allocates memory for data a header merely
 * claims (buffers grow as bytes actually arrive), caps feature and class counts ({@link
 * io.hdfl.data.Dataset#MAX_FEATURES}, {@link io.hdfl.data.Dataset#MAX_CLASSES}), rejects NaN and
 * infinite values, and reports every problem as a {@link io.hdfl.data.DatasetFormatException}
 * whose message is one line naming the file and the problem. gzip input is recognised by its magic
 * bytes, whatever the file is called. The entry point is {@link io.hdfl.data.Datasets}.
 */
package io.hdfl.data;
