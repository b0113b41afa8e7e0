// A game of Hill's game-state API whose mines are given, not dealt: lets his solver play the
// very boards mscsp plays, so the two players can be compared game by game.
// Written for benchmarks/players.py; it extends Hill's abstract GameStateModelViewer.

import minesweeper.gamestate.GameStateModel;
import minesweeper.gamestate.GameStateModelViewer;
import minesweeper.settings.GameSettings;
import minesweeper.structure.Location;

public class FixedBoard extends GameStateModelViewer {

    // board[x][y]: MINE, or the number of mines around
    private final int[][] board;

    public FixedBoard(int width, int height, int[] mineCells) {
        super(GameSettings.create(width, height, mineCells.length), 1);
        board = new int[width][height];
        for (int cell : mineCells) {
            board[cell % width][cell / width] = GameStateModel.MINE;
        }
        for (int cell : mineCells) {
            int x = cell % width;
            int y = cell / width;
            for (int j = 0; j < DX.length; j++) {
                int nx = x + DX[j];
                int ny = y + DY[j];
                if (nx >= 0 && nx < width && ny >= 0 && ny < height && board[nx][ny] != GameStateModel.MINE) {
                    board[nx][ny]++;
                }
            }
        }
    }

    // the mines are placed already: nothing to do at the first click
    @Override
    protected void startHandle(Location m) {
    }

    @Override
    protected void placeFlagHandle(Location m) {
    }

    @Override
    protected int queryHandle(int x, int y) {
        return board[x][y];
    }

    @Override
    protected boolean clearSquareHitMine(Location m) {
        if (board[m.x][m.y] == 0) {
            explode(m); // a zero opens its neighbours, as in every other game state
        }
        return board[m.x][m.y] == GameStateModel.MINE;
    }

    @Override
    protected boolean clearSurroundHandle(Location m) {
        for (int j = 0; j < DX.length; j++) {
            int nx = m.x + DX[j];
            int ny = m.y + DY[j];
            if (nx >= 0 && nx < width && ny >= 0 && ny < height) {
                clearSquare(new Location(nx, ny));
            }
        }
        return true;
    }

    @Override
    public int privilegedQuery(Location m, boolean showMines) {
        int result = query(m);
        if (result == GameStateModel.MINE) {
            return GameStateModel.EXPLODED_MINE;
        }
        if (showMines && result == GameStateModel.HIDDEN && board[m.x][m.y] == GameStateModel.MINE) {
            return GameStateModel.MINE;
        }
        if (showMines && result == GameStateModel.FLAG && board[m.x][m.y] != GameStateModel.MINE) {
            return GameStateModel.BAD_FLAG;
        }
        return result;
    }

    @Override
    public boolean supports3BV() {
        return true;
    }
}
