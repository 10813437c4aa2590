package dev.ferry.remoting.protocol.body;

/** Permission bits of topics and brokers. */
public final class Permission {
    public static final int PRIORITY = 8;
    public static final int READ = 4;
    public static final int WRITE = 2;
    public static final int INHERIT = 1;

    private Permission() {
    }

    public static boolean readable(int perm) {
        return (perm & READ) != 0;
    }

    public static boolean writable(int perm) {
        return (perm & WRITE) != 0;
    }
}
