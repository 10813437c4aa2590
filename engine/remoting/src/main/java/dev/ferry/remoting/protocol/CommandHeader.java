package dev.ferry.remoting.protocol;

/**
 * A typed request or response header. Implementations are records whose components travel as
 * a command's extension fields; {@link HeaderCodec} maps between the two.
 */
public interface CommandHeader {
}
