package dev.ferry.server.broker;

import dev.ferry.format.Clock;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.server.timer.TimerCheckpointBody;
import dev.ferry.server.timer.TimerStore;

/**
 * What a master answers its slaves besides the topics and groups the admin processors give: every consumer offset
 * (GET_ALL_CONSUMER_OFFSET), the delay progress (GET_ALL_DELAY_OFFSET) and how far timers have fired
 * (GET_TIMER_CHECK_POINT), in RocketMQ's layouts, as Apache's broker answers them.
 */
final class SlaveCopyProcessor implements RequestProcessor {
    static final int[] CODES = {RequestCode.GET_ALL_CONSUMER_OFFSET, RequestCode.GET_ALL_DELAY_OFFSET,
        RequestCode.GET_TIMER_CHECK_POINT};

    private final ConsumerOffsetTable offsets;
    private final ScheduleService schedule;
    private final BodyCodec json;
    private final TimerStore timers;
    private final Clock clock;

    SlaveCopyProcessor(ConsumerOffsetTable offsets, ScheduleService schedule, BodyCodec json, TimerStore timers,
                       Clock clock) {
        this.timers = timers;
        this.clock = clock;
        this.offsets = offsets;
        this.schedule = schedule;
        this.json = json;
    }

    @Override
    public RemotingCommand process(RequestContext context, RemotingCommand request) {
        byte[] body = switch (request.code()) {
            case RequestCode.GET_ALL_CONSUMER_OFFSET -> json.encode(offsets.snapshot());
            case RequestCode.GET_ALL_DELAY_OFFSET -> json.encode(schedule.snapshot());
            case RequestCode.GET_TIMER_CHECK_POINT -> TimerCheckpointBody.encode(timers.progress(),
                    timers.nextQueueOffset(), clock.millis());
            default -> null;
        };
        return body == null ? RemotingCommand.responseTo(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED).build()
                : RemotingCommand.responseTo(request, ResponseCode.SUCCESS).body(body).build();
    }
}
