package dev.ferry.bench.server;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** Scrapes a broker's Prometheus endpoint at a fixed interval, as Prometheus would, while a measurement runs. */
final class Scraper implements AutoCloseable {
    /** Scrapes nothing. */
    static final Scraper NONE = new Scraper(null);

    private final ScheduledExecutorService scheduler;
    private final AtomicLong scrapes = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();

    private Scraper(ScheduledExecutorService scheduler) {
        this.scheduler = scheduler;
    }

    static Scraper every(Duration interval, int port) {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "scraper");
            thread.setDaemon(true);
            return thread;
        });
        Scraper scraper = new Scraper(scheduler);
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build();
        scheduler.scheduleAtFixedRate(() -> {
            try {
                HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                (response.statusCode() == 200 ? scraper.scrapes : scraper.failures).incrementAndGet();
            } catch (Exception e) {
                scraper.failures.incrementAndGet();
            }
        }, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
        return scraper;
    }

    @Override
    public void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            System.out.printf("  metrics scraped %d times, %d failed%n", scrapes.get(), failures.get());
        }
    }
}
