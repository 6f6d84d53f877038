"""Contract and profile names in the languages beyond Spanish and English (issue 11): the
engine's own table, which the hand entry page reads; every other page takes names from the
catalog (app/web/words.py)."""
from __future__ import annotations


def named(lang: str, es: str, en: str) -> str:
    """A name in ``lang``: Spanish and English are the object's own, the other languages
    of the app come from :data:`OTHER_NAMES` (keyed by the English), else English."""
    if lang == "es":
        return es
    if lang == "en":
        return en
    return OTHER_NAMES.get(lang, {}).get(en, en)


#: Contract and profile names and descriptions in the app's other languages, keyed by the
#: English. Turkish keeps Rıfkı's own names; Russian says ru32's rounds as its players do.
OTHER_NAMES: dict[str, dict[str, str]] = {
    "tr": {
        "No Tricks": "El Almaz", "No Boys": "Papaz Almaz", "No Girls": "Kız Almaz",
        "No Hearts": "Kupa Almaz", "No King": "Rıfkı", "No Last Two": "Son İki",
        "Eralash (negative)": "Eralaş (eksi)", "Tricks (positive)": "Löveler (artı)",
        "Boys (positive)": "Papazlar (artı)", "Girls (positive)": "Kızlar (artı)",
        "Hearts (positive)": "Kupalar (artı)", "King (positive)": "Rıfkı (artı)",
        "Last Two (positive)": "Son İki (artı)", "Eralash (positive)": "Eralaş (artı)",
        "No tricks": "El Almaz", "No hearts": "Kupa Almaz", "No queens": "Kız Almaz",
        "No men": "Erkek Almaz", "No king of hearts": "Rıfkı", "No last two": "Son İki",
        "Fiesta with trumps": "Kozlu fiesta", "Fiesta without trumps": "Kozsuz fiesta",
        "Fiesta of nulos": "Nulos fiestası",
        "El Almaz (no tricks)": "El Almaz", "Kupa Almaz (no hearts)": "Kupa Almaz",
        "Erkek Almaz (no men)": "Erkek Almaz", "Kız Almaz (no queens)": "Kız Almaz",
        "Rıfkı (king of hearts)": "Rıfkı", "Son İki (last two)": "Son İki",
        "Koz (trumps)": "Koz",
        "Russian King": "Rus Kingi", "King with fiestas": "Fiestalı King",
        "King with auctions": "İhaleli King", "Turkish King (Rıfkı)": "Türk Kingi (Rıfkı)",
        "32 cards, 14 fixed rounds: seven negative ones and their seven positive twins.":
            "32 kart, 14 sabit el: yedi eksi el ve onların yedi artı ikizi.",
        "52 cards, 6 negative hands and 4 fiestas auctioned by the others.":
            "52 kart, 6 eksi el ve diğerlerinin ihaleyle aldığı 4 fiesta.",
        "52 cards, 6 negatives and 4 fiestas; +8 cannot be refused, ultimatum any time.":
            "52 kart, 6 eksi el ve 4 fiesta; +8 reddedilemez, ültimatom her an.",
        "52 cards, 20 chosen hands: six penalties twice each and koz eight times.":
            "52 kart, seçilen 20 el: altı cezanın her biri iki kez ve koz sekiz kez.",
    },
    "ru": {
        "No Tricks": "Не брать взяток", "No Boys": "Не брать мальчиков",
        "No Girls": "Не брать девочек", "No Hearts": "Не брать червей",
        "No King": "Не брать Кинга", "No Last Two": "Не брать двух последних",
        "Eralash (negative)": "Ералаш (минус)", "Tricks (positive)": "Взятки (плюс)",
        "Boys (positive)": "Мальчики (плюс)", "Girls (positive)": "Девочки (плюс)",
        "Hearts (positive)": "Черви (плюс)", "King (positive)": "Кинг (плюс)",
        "Last Two (positive)": "Две последние (плюс)", "Eralash (positive)": "Ералаш (плюс)",
        "No tricks": "Не брать взяток", "No hearts": "Не брать червей",
        "No queens": "Не брать дам", "No men": "Не брать мальчиков",
        "No king of hearts": "Не брать Кинга", "No last two": "Не брать двух последних",
        "Fiesta with trumps": "Фиеста с козырем", "Fiesta without trumps": "Фиеста без козыря",
        "Fiesta of nulos": "Фиеста нулос",
        "El Almaz (no tricks)": "El Almaz (без взяток)",
        "Kupa Almaz (no hearts)": "Kupa Almaz (без червей)",
        "Erkek Almaz (no men)": "Erkek Almaz (без мальчиков)",
        "Kız Almaz (no queens)": "Kız Almaz (без дам)",
        "Rıfkı (king of hearts)": "Rıfkı (король червей)",
        "Son İki (last two)": "Son İki (две последние)", "Koz (trumps)": "Koz (козыри)",
        "Russian King": "Русский Кинг", "King with fiestas": "Кинг с фиестами",
        "King with auctions": "Кинг с торгами", "Turkish King (Rıfkı)": "Турецкий Кинг (Rıfkı)",
        "32 cards, 14 fixed rounds: seven negative ones and their seven positive twins.":
            "32 карты, 14 раздач в постоянном порядке: семь минусовых и семь их плюсовых "
            "двойников.",
        "52 cards, 6 negative hands and 4 fiestas auctioned by the others.":
            "52 карты, 6 минусовых раздач и 4 фиесты, за которые торгуются остальные.",
        "52 cards, 6 negatives and 4 fiestas; +8 cannot be refused, ultimatum any time.":
            "52 карты, 6 минусовых и 4 фиесты; +8 нельзя отклонить, ультиматум в любой момент.",
        "52 cards, 20 chosen hands: six penalties twice each and koz eight times.":
            "52 карты, 20 раздач по выбору: шесть штрафных по два раза и коз восемь раз.",
    },
}
