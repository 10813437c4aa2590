package dev.ferry.server.auth;

import dev.ferry.remoting.protocol.BadRequestException;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.AclInfo;
import dev.ferry.remoting.protocol.body.UserInfo;
import dev.ferry.server.files.JsonFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The users and their ACLs, in memory for the checks of every request and in two JSON files ({@code users.json},
 * {@code acls.json}) of a directory only the broker's account may read. A change is written (atomically) before it
 * takes effect, and takes effect at once: the maps are replaced whole, so checks read them without locks.
 *
 * <p>Refusals carry RocketMQ's codes and remarks: {@link ResponseCode#NO_PERMISSION} for what the ACL rules refuse,
 * {@link ResponseCode#INVALID_PARAMETER} for a blank name. Passwords never appear in them.
 */
public final class AuthMetadata {
    /** Users kept at most, and entries per user's ACL: bounded, as everything a request can grow. */
    public static final int MAX_USERS = 10_000;
    public static final int MAX_ENTRIES_PER_ACL = 1_000;
    private static final int MAX_NAME_LENGTH = 255;

    /** How the files store them. */
    public record UsersFile(List<UserInfo> users) {
    }

    public record AclsFile(List<AclInfo> acls) {
    }

    private final JsonFile<UsersFile> usersFile;
    private final JsonFile<AclsFile> aclsFile;
    private volatile Map<String, AuthUser> users;
    private volatile Map<String, Acl> acls;

    /**
     * Reads what {@code dir} holds (nothing on first start).
     *
     * @throws dev.ferry.format.AtomicFile.UnreadableFileException when a file and its backup are both unreadable
     */
    public AuthMetadata(Path dir) {
        createPrivately(dir);
        this.usersFile = new JsonFile<>(dir.resolve("users.json"), UsersFile.class);
        this.aclsFile = new JsonFile<>(dir.resolve("acls.json"), AclsFile.class);
        Map<String, AuthUser> readUsers = new TreeMap<>();
        Map<String, Acl> readAcls = new TreeMap<>();
        try {
            usersFile.read().ifPresent(file -> file.users().forEach(info ->
                    readUsers.put(info.username(), AuthBodies.fromInfo(info))));
            aclsFile.read().ifPresent(file -> file.acls().forEach(info -> {
                String name = Acl.usernameOf(info.subject());
                if (name == null) {
                    throw new IllegalArgumentException("The subject is null.");
                }
                readAcls.put(name, new Acl(name, AuthBodies.policies(info)));
            }));
        } catch (IllegalArgumentException | NullPointerException e) {
            // a hand-edited file: refuse to start rather than run with fewer rules than written
            throw new IllegalStateException("the users and ACLs in " + dir + " cannot be used: " + e.getMessage(), e);
        }
        this.users = Map.copyOf(readUsers);
        this.acls = Map.copyOf(readAcls);
    }

    private static void createPrivately(Path dir) {
        try {
            if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
                if (!Files.isDirectory(dir)) {
                    Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(
                            PosixFilePermissions.fromString("rwx------")));
                }
                // the files hold passwords: nobody but the broker's account reads them
                Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
            } else {
                Files.createDirectories(dir);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
    }

    public Optional<AuthUser> user(String name) {
        return name == null ? Optional.empty() : Optional.ofNullable(users.get(name));
    }

    public Optional<Acl> acl(String username) {
        return username == null ? Optional.empty() : Optional.ofNullable(acls.get(username));
    }

    /** Users whose name contains {@code filter} (all when blank), by name. */
    public List<AuthUser> users(String filter) {
        return users.values().stream().filter(u -> filter == null || filter.isBlank() || u.name().contains(filter))
                .sorted(Comparator.comparing(AuthUser::name)).toList();
    }

    /** Every ACL, by subject. */
    public List<Acl> acls() {
        return acls.values().stream().sorted(Comparator.comparing(Acl::username)).toList();
    }

    /** Creates {@code user} unless one of that name exists; for the first users a configuration names. */
    public synchronized boolean createIfAbsent(AuthUser user) {
        if (users.containsKey(user.name())) {
            return false;
        }
        createUser(user);
        return true;
    }

    public synchronized void createUser(AuthUser user) {
        checkName(user.name());
        if (user.password().isBlank()) {
            throw refused("password can not be blank");
        }
        if (user.password().length() > MAX_NAME_LENGTH) {
            throw new BadRequestException(ResponseCode.INVALID_PARAMETER, "The password of user "
                    + AuthBodies.shown(user.name()) + " is longer than " + MAX_NAME_LENGTH + " characters");
        }
        if (users.containsKey(user.name())) {
            throw refused("The user is existed");
        }
        if (users.size() >= MAX_USERS) {
            throw new BadRequestException(ResponseCode.SYSTEM_ERROR, "The broker keeps at most " + MAX_USERS
                    + " users");
        }
        saveUsers(with(users, user.name(), user));
    }

    /** Replaces {@code user}'s password (when not blank), type and status (when given). */
    public synchronized void updateUser(String name, String password, UserType type, UserStatus status) {
        AuthUser old = users.get(name);
        if (old == null) {
            throw refused("The user is not exist");
        }
        if (password != null && password.length() > MAX_NAME_LENGTH) {
            throw new BadRequestException(ResponseCode.INVALID_PARAMETER, "The password of user "
                    + AuthBodies.shown(name) + " is longer than " + MAX_NAME_LENGTH + " characters");
        }
        AuthUser updated = new AuthUser(name, password == null || password.isBlank() ? old.password() : password,
                type == null ? old.type() : type, status == null ? old.status() : status);
        saveUsers(with(users, name, updated));
    }

    /** Deletes the user and its ACL; nothing happens when there is none. */
    public synchronized void deleteUser(String name) {
        if (!users.containsKey(name)) {
            return;
        }
        if (acls.containsKey(name)) {
            saveAcls(without(acls, name));
        }
        saveUsers(without(users, name));
    }

    /** Adds the entries to the user's ACL (creating it); an entry for a resource already there replaces it. */
    public synchronized void putAcl(String username, Map<PolicyType, List<PolicyEntry>> policies) {
        if (username == null || !users.containsKey(username)) {
            throw refused("The subject of User:" + AuthBodies.clean(username) + " is not exist.");
        }
        Acl acl = acls.getOrDefault(username, new Acl(username, Map.of()));
        for (Map.Entry<PolicyType, List<PolicyEntry>> policy : policies.entrySet()) {
            acl = acl.merged(policy.getKey(), policy.getValue());
        }
        if (acl.size() > MAX_ENTRIES_PER_ACL) {
            throw new BadRequestException(ResponseCode.SYSTEM_ERROR, "The ACL of User:" + username
                    + " would have " + acl.size() + " entries; at most " + MAX_ENTRIES_PER_ACL + " are kept");
        }
        saveAcls(with(acls, username, acl));
    }

    /** Deletes the entry for {@code resource} in {@code type}, or the whole ACL when {@code resource} is null. */
    public synchronized void deleteAcl(String username, PolicyType type, AclResource resource) {
        if (username == null) {
            throw refused("The subject is null.");
        }
        if (!users.containsKey(username)) {
            throw refused("The subject is not exist.");
        }
        Acl acl = acls.get(username);
        if (acl == null) {
            throw refused("The acl is not exist.");
        }
        if (resource == null) {
            saveAcls(without(acls, username));
            return;
        }
        Acl rest = acl.without(type, resource);
        saveAcls(rest.isEmpty() ? without(acls, username) : with(acls, username, rest));
    }

    private static void checkName(String name) {
        if (name == null || name.isBlank()) {
            throw new BadRequestException(ResponseCode.INVALID_PARAMETER, "The username is blank");
        }
        if (name.length() > MAX_NAME_LENGTH || name.codePoints().anyMatch(Character::isISOControl)
                || name.contains(":")) {
            throw new BadRequestException(ResponseCode.INVALID_PARAMETER, "The username "
                    + AuthBodies.shown(name) + " is not allowed: at most " + MAX_NAME_LENGTH
                    + " characters, no ':' and no control characters");
        }
    }

    static BadRequestException refused(String remark) {
        return new BadRequestException(ResponseCode.NO_PERMISSION, remark);
    }

    private void saveUsers(Map<String, AuthUser> next) {
        usersFile.write(new UsersFile(next.values().stream().sorted(Comparator.comparing(AuthUser::name))
                .map(AuthBodies::toInfo).toList()));
        users = next;
    }

    private void saveAcls(Map<String, Acl> next) {
        aclsFile.write(new AclsFile(next.values().stream().sorted(Comparator.comparing(Acl::username))
                .map(AuthBodies::toInfo).toList()));
        acls = next;
    }

    private static <V> Map<String, V> with(Map<String, V> map, String key, V value) {
        Map<String, V> next = new TreeMap<>(map);
        next.put(key, value);
        return Map.copyOf(next);
    }

    private static <V> Map<String, V> without(Map<String, V> map, String key) {
        Map<String, V> next = new TreeMap<>(map);
        next.remove(key);
        return Map.copyOf(next);
    }

    /** For tests and diagnostics: how many users there are. */
    public int userCount() {
        return users.size();
    }
}
