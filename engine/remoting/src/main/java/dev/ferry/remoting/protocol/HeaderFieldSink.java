package dev.ferry.remoting.protocol;

/**
 * Receives a typed header's non-null fields, by component index, without boxing numbers or
 * building strings for them: header serializers write straight from here into a frame.
 */
public interface HeaderFieldSink {

    void string(int index, String value);

    void number(int index, long value);

    void bool(int index, boolean value);
}
