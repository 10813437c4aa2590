package dev.ferry.server.cli;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.body.UserInfo;
import dev.ferry.remoting.protocol.header.ListUsersRequestHeader;
import dev.ferry.remoting.protocol.header.UserRequestHeader;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ferry-server admin user create|update|delete|get|list}: ACL 2.0 users, as mqadmin's createUser, updateUser,
 * deleteUser, getUser and listUser manage them (AUTH_CREATE_USER .. AUTH_LIST_USER), on the broker given or on every
 * master broker of the cluster. A user's password is never a command-line value: it is typed at a prompt (or piped
 * on standard input) with {@code --password}, or read from {@value #PASSWORD_VARIABLE}. Passwords are never shown.
 */
@Command(name = "user", mixinStandardHelpOptions = true, description = "Creates, changes, deletes and lists users "
        + "(ACL 2.0).")
final class UserCommands {
    /** The environment variable a new or changed user's password is read from when not typed. */
    static final String PASSWORD_VARIABLE = "FERRY_ADMIN_USER_PASSWORD";

    @CommandLine.ParentCommand
    AdminCommand admin;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Command(name = "create", description = "Creates a user on every master broker (mqadmin's createUser).")
    int create(@Parameters(paramLabel = "USERNAME") String username,
               @Option(names = "--password", arity = "0", interactive = true, prompt = "Password of the user: ",
                       description = "Ask for the user's password; default: " + PASSWORD_VARIABLE + ".")
               char[] password,
               @Option(names = "--type", paramLabel = "Super|Normal", description = "The user's type (the server's "
                       + "default: Normal).") String type,
               @Option(names = "--cluster", description = "Only this cluster's brokers.") String cluster) {
        String secret = password(password);
        if (secret == null) {
            return badSetup("a new user needs a password: give --password or set " + PASSWORD_VARIABLE);
        }
        return send("create", RequestCode.AUTH_CREATE_USER, new UserInfo(username, secret, type, null), cluster,
                "created user %s on %s%n");
    }

    @Command(name = "update", description = "Changes a user's password, type or status on every master broker "
            + "(mqadmin's updateUser).")
    int update(@Parameters(paramLabel = "USERNAME") String username,
               @Option(names = "--password", arity = "0", interactive = true, prompt = "Password of the user: ",
                       description = "Ask for a new password; default: " + PASSWORD_VARIABLE + " when set.")
               char[] password,
               @Option(names = "--type", paramLabel = "Super|Normal", description = "A new type.") String type,
               @Option(names = "--status", paramLabel = "enable|disable", description = "A new status: a disabled "
                       + "user's requests are refused.") String status,
               @Option(names = "--cluster", description = "Only this cluster's brokers.") String cluster) {
        String secret = password(password);
        if (secret == null && type == null && status == null) {
            return badSetup("nothing to change: give --password, --type or --status (or set " + PASSWORD_VARIABLE
                    + ")");
        }
        return send("update", RequestCode.AUTH_UPDATE_USER, new UserInfo(username, secret, type, status), cluster,
                "updated user %s on %s%n");
    }

    /** Sends {@code user} with {@code code} to each broker; {@code done} formats the user's name and the broker. */
    private int send(String command, int code, UserInfo user, String cluster, String done) {
        return admin.run(spec.subcommands().get(command).getCommandSpec(), (calls, out) -> {
            for (String broker : calls.brokers(cluster)) {
                calls.call(broker, RemotingCommand.request(code, new UserRequestHeader(user.username()))
                        .body(calls.json().encode(user)).build());
                out.printf(done, user.username(), broker);
            }
        });
    }

    @Command(name = "delete", description = "Deletes a user from every master broker (mqadmin's deleteUser).")
    int delete(@Parameters(paramLabel = "USERNAME") String username,
               @Option(names = "--cluster", description = "Only this cluster's brokers.") String cluster) {
        return admin.run(spec.subcommands().get("delete").getCommandSpec(), (calls, out) -> {
            for (String broker : calls.brokers(cluster)) {
                calls.call(broker, RemotingCommand.request(RequestCode.AUTH_DELETE_USER,
                        new UserRequestHeader(username)).build());
                out.printf("deleted user %s from %s%n", username, broker);
            }
        });
    }

    @Command(name = "get", description = "A user's type and status on each master broker (mqadmin's getUser).")
    int get(@Parameters(paramLabel = "USERNAME") String username,
            @Option(names = "--cluster", description = "Only this cluster's brokers.") String cluster) {
        return admin.run(spec.subcommands().get("get").getCommandSpec(), (calls, out) -> {
            List<Row> rows = new ArrayList<>();
            calls.getEach(calls.brokers(cluster), () -> RemotingCommand.request(RequestCode.AUTH_GET_USER,
                    new UserRequestHeader(username)).build(), UserInfo.class, "user " + username)
                    .forEach((broker, found) -> rows.add(new Row(broker, found)));
            print(rows, out);
        });
    }

    @Command(name = "list", description = "The users of each master broker (mqadmin's listUser).")
    int list(@Option(names = "--filter", description = "Only users whose name contains this.") String filter,
             @Option(names = "--cluster", description = "Only this cluster's brokers.") String cluster) {
        return admin.run(spec.subcommands().get("list").getCommandSpec(), (calls, out) -> {
            List<Row> rows = new ArrayList<>();
            calls.listEach(calls.brokers(cluster), () -> RemotingCommand.request(RequestCode.AUTH_LIST_USER,
                    new ListUsersRequestHeader(filter)).build(), UserInfo[].class)
                    .forEach((broker, users) -> users.forEach(user -> rows.add(new Row(broker, user))));
            print(rows, out);
        });
    }

    /** One user as one broker has it. */
    private record Row(String broker, UserInfo user) {
    }

    /** The users, without their passwords. */
    private static void print(List<Row> rows, PrintWriter out) {
        out.printf("%-22s %-32s %-8s %-8s%n", "BROKER", "USER", "TYPE", "STATUS");
        for (Row row : rows) {
            out.printf("%-22s %-32s %-8s %-8s%n", row.broker(), AdminCalls.cell(row.user().username()),
                    AdminCalls.cell(row.user().userType()), AdminCalls.cell(row.user().userStatus()));
        }
    }

    /** The password typed, else the environment's, else {@code null}. */
    private String password(char[] typed) {
        if (typed != null && typed.length > 0) {
            return new String(typed);
        }
        String fromEnvironment = admin.environment(PASSWORD_VARIABLE);
        return fromEnvironment == null || fromEnvironment.isEmpty() ? null : fromEnvironment;
    }

    private int badSetup(String message) {
        spec.commandLine().getErr().println(message);
        spec.commandLine().getErr().flush();
        return AdminCommand.BAD_SETUP;
    }
}
