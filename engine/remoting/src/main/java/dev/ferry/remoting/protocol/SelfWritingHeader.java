package dev.ferry.remoting.protocol;

/**
 * A header record that hands its fields to a {@link HeaderFieldSink} itself, by component
 * index, skipping {@code null}s, exactly as {@link HeaderCodec} would through its generic
 * readers. The hottest headers (sends and pulls) implement it so their encoding is plain,
 * inlinable code; a test keeps each one equal to the generic path.
 */
public interface SelfWritingHeader {

    void writeFields(HeaderFieldSink sink);
}
