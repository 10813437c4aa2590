package dev.ferry.store;

import dev.ferry.format.AtomicFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Where a topic's consume queues live: {@code consumequeue/<topic>/<queueId>/}. A topic name too long for one
 * directory entry (file systems allow 255 bytes; a group's retry topic may have 262 characters) gets a directory
 * named by its first characters, {@code '~'} (never part of a topic name) and a hash, with the whole name in a file
 * {@value #NAME_FILE} inside, written before any segment.
 */
final class QueueDirectories {
    /** Longest topic name used as a directory name as it is. */
    static final int LONGEST_PLAIN_NAME = 200;
    static final String NAME_FILE = "topic";
    private static final int KEPT_CHARACTERS = 100;

    private final Path root;

    QueueDirectories(Path root) {
        this.root = root;
    }

    Path root() {
        return root;
    }

    /** The directory of a topic's queues; its name file is written when the name is hashed. */
    Path topicDirectory(String topic) {
        if (topic.length() <= LONGEST_PLAIN_NAME) {
            return root.resolve(topic);
        }
        Path dir = root.resolve(topic.substring(0, KEPT_CHARACTERS) + '~' + hash(topic));
        AtomicFile nameFile = new AtomicFile(dir.resolve(NAME_FILE));
        if (nameFile.read(QueueDirectories::decodeName).isEmpty()) {
            try {
                nameFile.write(topic.getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("cannot record the topic name in " + dir, e);
            }
        }
        return dir;
    }

    /**
     * The topic whose queues a directory found on disk holds.
     *
     * @return empty when the directory is not one of ours or its name file is gone
     */
    Optional<String> topicOf(Path topicDirectory) {
        String name = topicDirectory.getFileName().toString();
        if (name.indexOf('~') < 0) {
            return Optional.of(name);
        }
        return new AtomicFile(topicDirectory.resolve(NAME_FILE)).read(QueueDirectories::decodeName);
    }

    private static String decodeName(byte[] bytes) {
        String name = new String(bytes, StandardCharsets.UTF_8);
        if (name.isEmpty()) {
            throw new IllegalArgumentException("empty topic name");
        }
        return name;
    }

    private static String hash(String topic) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(topic.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 20);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK lacks SHA-256", e);
        }
    }
}
