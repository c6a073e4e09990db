package io.sessionmesh.benchmarks.load;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The load generator's PNG charts (XChart): latency by percentile per system for each mode, throughput over time,
 * and the sidecars' hit ratio over time. The percentile axis is in "nines": 1 is p90, 2 is p99, 3 is p99.9.
 */
final class LoadCharts {
    static final int WIDTH = 1000;
    static final int HEIGHT = 560;

    private LoadCharts() {
    }

    /** Writes the charts into {@code dir}; answers their file names. */
    static List<String> write(Path dir, List<PhaseResult> results, List<String> modes) throws IOException {
        System.setProperty("java.awt.headless", "true");
        List<String> files = new ArrayList<>();
        for (String mode : modes) {
            XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                    .title("End-user request latency by percentile, " + mode + " loop" + rateNote(results, mode))
                    .xAxisTitle("percentile, in nines (1 = p90, 2 = p99, 3 = p99.9, 4 = p99.99; at 5: the max)").yAxisTitle("latency, ms").build();
            chart.getStyler().setYAxisLogarithmic(true);
            chart.getStyler().setMarkerSize(0);
            boolean any = false;
            for (PhaseResult r : results) {
                if (r.mode.equals(mode) && r.requestLatency().getTotalCount() > 0) {
                    double[][] xy = percentileCurve(r.requestLatency());
                    chart.addSeries(r.system, xy[0], xy[1]).setMarker(SeriesMarkers.NONE);
                    any = true;
                }
            }
            if (any) {
                files.add(save(chart, dir, "latency-" + mode));
            }
        }
        XYChart throughput = new XYChartBuilder().width(WIDTH).height(HEIGHT).title("End-user requests a second, measured period")
                .xAxisTitle("second").yAxisTitle("requests / s").build();
        XYChart hits = new XYChartBuilder().width(WIDTH).height(HEIGHT).title("Sidecar hit ratio (reads wholly from the cache), per second")
                .xAxisTitle("second").yAxisTitle("hit ratio").build();
        boolean anyHits = false;
        for (PhaseResult r : results) {
            if (!r.throughputPerSecond.isEmpty()) {
                throughput.addSeries(r.system + " (" + r.mode + ")", seconds(r.throughputPerSecond.size()),
                        unbox(r.throughputPerSecond)).setMarker(SeriesMarkers.NONE);
            }
            if (!r.hitRatioPerSecond.isEmpty()) {
                hits.addSeries(r.system + " (" + r.mode + ")", seconds(r.hitRatioPerSecond.size()), unbox(r.hitRatioPerSecond))
                        .setMarker(SeriesMarkers.NONE);
                anyHits = true;
            }
        }
        files.add(save(throughput, dir, "throughput"));
        if (anyHits) {
            hits.getStyler().setYAxisMin(0.0).setYAxisMax(1.0);
            files.add(save(hits, dir, "hit-ratio"));
        }
        return files;
    }

    private static String rateNote(List<PhaseResult> results, String mode) {
        return results.stream().filter(r -> r.mode.equals(mode) && r.offeredRate > 0).findFirst()
                .map(r -> String.format(" at %,d requests/s", r.offeredRate)).orElse("");
    }

    /** (nines, ms) points of a histogram's percentile distribution. */
    static double[][] percentileCurve(Histogram h) {
        List<double[]> points = new ArrayList<>();
        for (HistogramIterationValue v : h.percentiles(5)) {
            double p = v.getPercentileLevelIteratedTo() / 100;
            if (p >= 0.99999) {
                break;
            }
            points.add(new double[] {-Math.log10(1 - p), Math.max(1e-3, v.getValueIteratedTo() / 1e6)});
        }
        points.add(new double[] {5, Math.max(1e-3, h.getMaxValue() / 1e6)});
        double[][] xy = new double[2][points.size()];
        for (int i = 0; i < points.size(); i++) {
            xy[0][i] = points.get(i)[0];
            xy[1][i] = points.get(i)[1];
        }
        return xy;
    }

    private static double[] seconds(int n) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = i + 1;
        }
        return x;
    }

    private static double[] unbox(List<Double> values) {
        return values.stream().mapToDouble(d -> d == null || d.isNaN() ? 0 : d).toArray();
    }

    private static String save(XYChart chart, Path dir, String name) throws IOException {
        BitmapEncoder.saveBitmap(chart, dir.resolve(name).toString(), BitmapEncoder.BitmapFormat.PNG);
        return name + ".png";
    }
}
