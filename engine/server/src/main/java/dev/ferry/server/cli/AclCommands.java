package dev.ferry.server.cli;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.body.AclInfo;
import dev.ferry.remoting.protocol.header.AclRequestHeader;
import dev.ferry.remoting.protocol.header.ListAclsRequestHeader;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ferry-server admin acl create|update|delete|get|list}: ACL 2.0 policies, as mqadmin's createAcl, updateAcl,
 * deleteAcl, getAcl and listAcl manage them (AUTH_CREATE_ACL .. AUTH_LIST_ACL), on the broker given or on every
 * master broker of the cluster. A subject is {@code User:NAME}; each resource ({@code Topic:orders},
 * {@code Group:billing*}, {@code *}) becomes one entry with the actions, source addresses and decision given.
 */
@Command(name = "acl", mixinStandardHelpOptions = true, description = "Creates, changes, deletes and lists access "
        + "policies (ACL 2.0).")
final class AclCommands {
    private static final String ROW = "%-22s %-20s %-8s %-28s %-24s %-18s %-8s%n";

    @CommandLine.ParentCommand
    AdminCommand admin;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** What {@code create} and {@code update} send: a subject's entries, one per resource. */
    static final class Entries {
        @Option(names = "--resources", split = ",", required = true, paramLabel = "RESOURCE",
                description = "Resources, comma-separated: Topic:NAME, Group:NAME, Cluster:NAME, a trailing * for a "
                        + "prefix, or * for all.")
        List<String> resources;

        @Option(names = "--actions", split = ",", required = true, paramLabel = "ACTION",
                description = "Actions, comma-separated: Pub, Sub, Create, Update, Delete, Get, List, All.")
        List<String> actions;

        @Option(names = "--source-ips", split = ",", paramLabel = "ADDRESS",
                description = "Client addresses or ranges it applies to, comma-separated (default: any).")
        List<String> sourceIps;

        @Option(names = "--decision", required = true, paramLabel = "Allow|Deny", description = "Allow or Deny.")
        String decision;

        AclInfo of(String subject) {
            List<AclInfo.PolicyEntryInfo> entries = resources.stream().map(String::trim)
                    .map(resource -> new AclInfo.PolicyEntryInfo(resource, trimmed(actions), sourceIps == null
                            ? null : trimmed(sourceIps), decision.trim())).toList();
            return new AclInfo(subject, List.of(new AclInfo.PolicyInfo(null, entries)));
        }

        private static List<String> trimmed(List<String> values) {
            return values.stream().map(String::trim).toList();
        }
    }

    @Command(name = "create", description = "Gives a subject a policy on every master broker (mqadmin's "
            + "createAcl).")
    int create(@Parameters(paramLabel = "SUBJECT", description = "User:NAME") String subject,
               @CommandLine.ArgGroup(exclusive = false, multiplicity = "1") Entries entries,
               @Option(names = "--cluster", description = "Only this cluster's brokers.") String cluster) {
        return put("create", RequestCode.AUTH_CREATE_ACL, "created", subject, entries, cluster);
    }

    @Command(name = "update", description = "Adds entries to a subject's policy, or replaces those of the same "
            + "resources, on every master broker (mqadmin's updateAcl).")
    int update(@Parameters(paramLabel = "SUBJECT", description = "User:NAME") String subject,
               @CommandLine.ArgGroup(exclusive = false, multiplicity = "1") Entries entries,
               @Option(names = "--cluster", description = "Only this cluster's brokers.") String cluster) {
        return put("update", RequestCode.AUTH_UPDATE_ACL, "updated", subject, entries, cluster);
    }

    private int put(String command, int code, String done, String subject, Entries entries, String cluster) {
        AclInfo acl = entries.of(subject);
        return admin.run(spec.subcommands().get(command).getCommandSpec(), (calls, out) -> {
            for (String broker : calls.brokers(cluster)) {
                calls.call(broker, RemotingCommand.request(code, new AclRequestHeader(subject, null, null))
                        .body(calls.json().encode(acl)).build());
                out.printf("%s acl of %s on %s%n", done, subject, broker);
            }
        });
    }

    @Command(name = "delete", description = "Deletes a subject's policies, or only its entry for one resource, "
            + "from every master broker (mqadmin's deleteAcl).")
    int delete(@Parameters(paramLabel = "SUBJECT", description = "User:NAME") String subject,
               @Option(names = "--resource", description = "Only the entry of this resource.") String resource,
               @Option(names = "--policy-type", paramLabel = "Custom|Default",
                       description = "The policy the entry is in (default: Custom).") String policyType,
               @Option(names = "--cluster", description = "Only this cluster's brokers.") String cluster) {
        return admin.run(spec.subcommands().get("delete").getCommandSpec(), (calls, out) -> {
            for (String broker : calls.brokers(cluster)) {
                calls.call(broker, RemotingCommand.request(RequestCode.AUTH_DELETE_ACL,
                        new AclRequestHeader(subject, policyType, resource)).build());
                out.printf("deleted acl of %s%s from %s%n", subject, resource == null ? "" : " on " + resource,
                        broker);
            }
        });
    }

    @Command(name = "get", description = "A subject's policies on each master broker (mqadmin's getAcl).")
    int get(@Parameters(paramLabel = "SUBJECT", description = "User:NAME") String subject,
            @Option(names = "--cluster", description = "Only this cluster's brokers.") String cluster) {
        return admin.run(spec.subcommands().get("get").getCommandSpec(), (calls, out) -> {
            List<Row> rows = new ArrayList<>();
            calls.getEach(calls.brokers(cluster), () -> RemotingCommand.request(RequestCode.AUTH_GET_ACL,
                    new AclRequestHeader(subject, null, null)).build(), AclInfo.class, "acl of " + subject)
                    .forEach((broker, found) -> rows.add(new Row(broker, found)));
            print(rows, out);
        });
    }

    @Command(name = "list", description = "The policies of each master broker (mqadmin's listAcl).")
    int list(@Option(names = "--subject", description = "Only subjects containing this.") String subjectFilter,
             @Option(names = "--resource", description = "Only entries whose resource contains this.")
             String resourceFilter,
             @Option(names = "--cluster", description = "Only this cluster's brokers.") String cluster) {
        return admin.run(spec.subcommands().get("list").getCommandSpec(), (calls, out) -> {
            List<Row> rows = new ArrayList<>();
            calls.listEach(calls.brokers(cluster), () -> RemotingCommand.request(RequestCode.AUTH_LIST_ACL,
                    new ListAclsRequestHeader(subjectFilter, resourceFilter)).build(), AclInfo[].class)
                    .forEach((broker, acls) -> acls.forEach(acl -> rows.add(new Row(broker, acl))));
            print(rows, out);
        });
    }

    /** One subject's policies as one broker has them. */
    private record Row(String broker, AclInfo acl) {
    }

    /** One line per entry; a subject without entries gets a line of its own. */
    private static void print(List<Row> rows, PrintWriter out) {
        out.printf(ROW, "BROKER", "SUBJECT", "POLICY", "RESOURCE", "ACTIONS", "SOURCE_IPS", "DECISION");
        for (Row row : rows) {
            String subject = AdminCalls.cell(row.acl().subject());
            boolean printed = false;
            for (AclInfo.PolicyInfo policy : row.acl().policies() == null ? List.<AclInfo.PolicyInfo>of()
                    : row.acl().policies()) {
                for (AclInfo.PolicyEntryInfo entry : policy.entries() == null
                        ? List.<AclInfo.PolicyEntryInfo>of() : policy.entries()) {
                    out.printf(ROW, row.broker(), subject, AdminCalls.cell(policy.policyType()),
                            AdminCalls.cell(entry.resource()), joined(entry.actions()),
                            joined(entry.sourceIps()), AdminCalls.cell(entry.decision()));
                    printed = true;
                }
            }
            if (!printed) {
                out.printf(ROW, row.broker(), subject, "-", "-", "-", "-", "-");
            }
        }
    }

    private static String joined(List<String> values) {
        return values == null || values.isEmpty() ? "-" : AdminCalls.shown(String.join(",", values));
    }
}
