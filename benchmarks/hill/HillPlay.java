// Headless single-threaded benchmark driver for David Hill's Java Minesweeper solver.
// Written for benchmarks/players.py; it only *calls* Hill's classes (GameFactory, Solver, ...).
//
// Usage: java -cp <hill-classes>:<driver-classes> HillPlay W H MINES MODE X Y GAMES SEED WARMUP
//   MODE = opening : first click at (X,Y) is guaranteed a zero  -> Hill GameType.EASY ("Zero")
//   MODE = safe    : first click at (X,Y) is guaranteed safe     -> Hill GameType.STANDARD ("Safe")
// Output: one line per reported game "index won cpu_ns" (cpu of this thread for the whole game),
//         then "TOTAL games wins process_cpu_ns" (process cpu measured after the warm-up games).
//
// Usage: java ... HillPlay boards WARMUP < BOARDS
//   plays given boards instead of dealing them, one per line of standard input:
//   "W H X Y m1 m2 ..." (the first click (X,Y), then the mines as flat indices y * W + x).
//   The first WARMUP lines are played and not reported. Output: one line per reported game,
//   "index won cpu_ns guesses", guesses being the cells it clicked without certainty, "x,y;x,y"
//   ("-" for none), then the TOTAL line as above.
//
// Usage: java ... HillPlay serve
//   plays given boards one at a time, as they arrive on standard input (the same lines as
//   above), answering each at once with "R won cpu_ns process_cpu_ns guesses" (process_cpu_ns:
//   the whole JVM's CPU time during that game), so one warm JVM can serve many chunks of games.

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import minesweeper.gamestate.GameFactory;
import minesweeper.gamestate.GameStateModel;
import minesweeper.settings.GameSettings;
import minesweeper.settings.GameType;
import minesweeper.solver.Solver;
import minesweeper.solver.settings.PlayStyle;
import minesweeper.solver.settings.SettingsFactory;
import minesweeper.solver.settings.SettingsFactory.Setting;
import minesweeper.solver.settings.SolverSettings;
import minesweeper.solver.utility.BinomialCache;
import minesweeper.structure.Action;
import minesweeper.structure.Location;

public class HillPlay {

    private static final int MAX_SOLVER_CALLS = 1000; // same loop guard as Hill's BulkWorker

    public static void main(String[] args) throws Exception {
        if (args.length == 1 && args[0].equals("serve")) {
            serve();
            return;
        }
        if (args.length == 2 && args[0].equals("boards")) {
            playBoards(Integer.parseInt(args[1]));
            return;
        }
        if (args.length != 9) {
            System.err.println("usage: HillPlay W H MINES opening|safe X Y GAMES SEED WARMUP");
            System.exit(2);
        }
        int w = Integer.parseInt(args[0]);
        int h = Integer.parseInt(args[1]);
        int mines = Integer.parseInt(args[2]);
        String mode = args[3];
        int sx = Integer.parseInt(args[4]);
        int sy = Integer.parseInt(args[5]);
        int games = Integer.parseInt(args[6]);
        long seed = Long.parseLong(args[7]);
        int warmup = Integer.parseInt(args[8]);

        GameType type;
        if (mode.equals("opening")) {
            type = GameType.EASY;
        } else if (mode.equals("safe")) {
            type = GameType.STANDARD;
        } else {
            throw new IllegalArgumentException("mode must be opening or safe: " + mode);
        }
        GameSettings gameSettings = GameSettings.create(w, h, mines);
        Location start = new Location(sx, sy);

        // Same solver configuration as Hill's MinesweeperBulk main: SMALL_ANALYSIS, single thread, NO_FLAG.
        SolverSettings settings = SettingsFactory.GetSettings(Setting.SMALL_ANALYSIS);
        settings.setSingleThread(true);
        settings.setStartLocation(start); // only used if the solver ever sees an unstarted board
        // one binomial cache per worker thread, as Hill's BulkWorker does
        BinomialCache bc = new BinomialCache(5000, Solver.BINOMIAL_CACHE_LIMIT, Solver.binomialEngine);

        ThreadMXBean tmx = ManagementFactory.getThreadMXBean();
        if (!tmx.isCurrentThreadCpuTimeSupported()) {
            throw new IllegalStateException("thread cpu time not supported");
        }
        tmx.setThreadCpuTimeEnabled(true);
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

        // Separate seed streams so the reported games depend only on SEED, not on WARMUP.
        Random warmSeeder = new Random(seed ^ 0x9E3779B97F4A7C15L);
        for (int i = 0; i < warmup; i++) {
            playGame(type, gameSettings, nextGameSeed(warmSeeder), start, settings, bc);
        }

        Random seeder = new Random(seed);
        StringBuilder out = new StringBuilder(64 * Math.max(16, games));
        int wins = 0;
        long proc0 = os.getProcessCpuTime();
        for (int i = 0; i < games; i++) {
            long gameSeed = nextGameSeed(seeder);
            long t0 = tmx.getCurrentThreadCpuTime();
            boolean won = playGame(type, gameSettings, gameSeed, start, settings, bc);
            long t1 = tmx.getCurrentThreadCpuTime();
            if (won) {
                wins++;
            }
            out.append(i).append(' ').append(won ? 1 : 0).append(' ').append(t1 - t0).append('\n');
        }
        long proc1 = os.getProcessCpuTime();
        System.out.print(out);
        System.out.println("TOTAL " + games + " " + wins + " " + (proc1 - proc0));
        System.out.flush();
    }

    private static void playBoards(int warmup) throws Exception {
        SolverSettings settings = SettingsFactory.GetSettings(Setting.SMALL_ANALYSIS);
        settings.setSingleThread(true);
        BinomialCache bc = new BinomialCache(5000, Solver.BINOMIAL_CACHE_LIMIT, Solver.binomialEngine);
        ThreadMXBean tmx = ManagementFactory.getThreadMXBean();
        tmx.setThreadCpuTimeEnabled(true);
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder out = new StringBuilder();
        int line = 0;
        int games = 0;
        int wins = 0;
        long proc0 = 0;
        String text;
        while ((text = in.readLine()) != null) {
            text = text.trim();
            if (text.isEmpty()) {
                continue;
            }
            String[] f = text.split(" ");
            if (line == warmup) {
                proc0 = os.getProcessCpuTime();
            }
            List<Location> guesses = new ArrayList<>();
            long t0 = tmx.getCurrentThreadCpuTime();
            boolean won = playLine(f, settings, bc, guesses);
            long t1 = tmx.getCurrentThreadCpuTime();
            if (line >= warmup) {
                out.append(games).append(' ').append(won ? 1 : 0).append(' ').append(t1 - t0).append(' ')
                        .append(cells(guesses)).append('\n');
                games++;
                if (won) {
                    wins++;
                }
            }
            line++;
        }
        long proc1 = os.getProcessCpuTime();
        System.out.print(out);
        System.out.println("TOTAL " + games + " " + wins + " " + (proc1 - proc0));
        System.out.flush();
    }

    private static void serve() throws Exception {
        SolverSettings settings = SettingsFactory.GetSettings(Setting.SMALL_ANALYSIS);
        settings.setSingleThread(true);
        BinomialCache bc = new BinomialCache(5000, Solver.BINOMIAL_CACHE_LIMIT, Solver.binomialEngine);
        ThreadMXBean tmx = ManagementFactory.getThreadMXBean();
        tmx.setThreadCpuTimeEnabled(true);
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String text;
        while ((text = in.readLine()) != null) {
            text = text.trim();
            if (text.isEmpty()) {
                continue;
            }
            List<Location> guesses = new ArrayList<>();
            long p0 = os.getProcessCpuTime();
            long t0 = tmx.getCurrentThreadCpuTime();
            boolean won = playLine(text.split(" "), settings, bc, guesses);
            long t1 = tmx.getCurrentThreadCpuTime();
            long p1 = os.getProcessCpuTime();
            // the prefix tells the answer apart from anything the solver itself prints
            System.out.println("R " + (won ? 1 : 0) + " " + (t1 - t0) + " " + (p1 - p0) + " " + cells(guesses));
            System.out.flush();
        }
    }

    // One board line "W H X Y m1 m2 ..." played by the solver.
    private static boolean playLine(String[] f, SolverSettings settings, BinomialCache bc, List<Location> guesses) {
        int w = Integer.parseInt(f[0]);
        int h = Integer.parseInt(f[1]);
        Location start = new Location(Integer.parseInt(f[2]), Integer.parseInt(f[3]));
        int[] mines = new int[f.length - 4];
        for (int i = 4; i < f.length; i++) {
            mines[i - 4] = Integer.parseInt(f[i]);
        }
        return play(new FixedBoard(w, h, mines), start, settings, bc, guesses);
    }

    private static String cells(List<Location> guesses) {
        StringBuilder g = new StringBuilder();
        for (Location l : guesses) {
            g.append(g.length() == 0 ? "" : ";").append(l.x).append(',').append(l.y);
        }
        return g.length() == 0 ? "-" : g.toString();
    }

    // Same derivation as Hill's BulkController; 0 would mean "unseeded" in GameFactory, so avoid it.
    private static long nextGameSeed(Random seeder) {
        long s = Math.abs(seeder.nextLong() & 0xFFFFFFFFFFFFFL);
        return s == 0 ? 1 : s;
    }

    private static boolean playGame(GameType type, GameSettings gs, long gameSeed, Location start,
                                    SolverSettings settings, BinomialCache bc) {
        return play(GameFactory.create(type, gs, gameSeed), start, settings, bc, null);
    }

    // The first click is ours, the rest the solver's; with guesses, the cells it clicked without
    // certainty are added to it.
    private static boolean play(GameStateModel game, Location start, SolverSettings settings, BinomialCache bc,
                                List<Location> guesses) {
        long gameSeed = game.getSeed();
        // We make the first click ourselves; Hill's game classes place the mines on the first click
        // (EASY: none in the 3x3 around it, STANDARD: none on it).
        game.doAction(new Action(start, Action.CLEAR));
        int state = game.getGameState();
        if (state == GameStateModel.WON) {
            return true;
        }
        if (state == GameStateModel.LOST) {
            return false;
        }

        Solver solver = new Solver(game, settings, false);
        solver.setPlayStyle(PlayStyle.NO_FLAG);
        solver.setBinomialCache(bc);

        for (int calls = 0; calls < MAX_SOLVER_CALLS; calls++) {
            Action[] moves;
            try {
                solver.start();
                moves = solver.getResult();
            } catch (Exception e) {
                System.err.println("game seed " + gameSeed + ": solver exception " + e);
                return false;
            }
            if (moves.length == 0) {
                System.err.println("game seed " + gameSeed + ": solver returned no moves");
                return false;
            }
            for (Action a : moves) {
                if (guesses != null && a.getAction() == Action.CLEAR && !a.isCertainty()) {
                    guesses.add(a);
                }
                game.doAction(a);
                state = game.getGameState();
                if (state == GameStateModel.WON) {
                    return true;
                }
                if (state == GameStateModel.LOST) {
                    return false;
                }
            }
        }
        System.err.println("game seed " + gameSeed + ": looping, counted as loss");
        return false;
    }
}
