

def test_report_uses_the_seat_numbers_the_file_gives():
    from terragen.terrain.files import load_layout
    from terragen.terrain.sim import simulate_layout
    from terragen.templates import template_path

    layout = load_layout(template_path("terrain", "examples", "two-players.txt"))
    for p in layout.players:
        p.seat += 5
    report = simulate_layout(layout, games=10, seed=1)
    assert [s.seat for s in report.seats] == [5, 6]
